import Testing

@testable import FlowSpecLanguage

/// The hand-written input shapes accept exactly what the regular expressions they replace accept.
@Suite(.timeLimit(.minutes(5))) struct InputShapeTests {
    static let email = RegexCache.compile(#"^[^@\s]+@[^@\s]+\.[^@\s]+$"#)!
    static let e164 = RegexCache.compile(#"^\+[1-9][0-9]{1,14}$"#)!

    static let samples = [
        "", "@", "a@b", "a@b.c", "qa@example.com", "a@.c", "a@b.", "@b.c", "a@@b.c", "a@b@c.d", "a b@c.d", "a@b .c",
        "a@b.c ", " a@b.c", "a@b..c", "a@.b.c", "a.@b.c", "é@ü.ß", "a@b\u{2003}.c", "a@b\u{0B}.c", "a@b\u{85}.c",
        "a@b\u{2028}c.d", "a@b\u{A0}.c", "a@b\u{200B}.c", "a@b\u{1680}.c", "a@b\u{3000}.c", "a@b\u{1C}.c", "a\t@b.c",
        "a@b.c\n", "x@y.z.", "x@.y.z", "x@y..", "+15551234567", "+1", "+12", "+0123",
        "+123456789012345", "+1234567890123456", "15551234567", "+1555 1234", "+１２３", "+1٢٣", "++12", "+9",
    ]

    @Test func emailIsThePatternItReplaces() throws {
        for s in Self.samples {
            #expect(InputShapes.isEmail(s) == (try Self.email.wholeMatch(s)), "\(s.debugDescription)")
        }
    }

    static let code = RegexCache.compile(#"^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$"#)!
    static let codeSamples =
        samples + [
            "123456", "ABCD-EFGH", "abcd-1234-ef56", "Q3FFFLYM", "-", "-AB", "AB-", "AB--CD", "A-B-C", "123 456", "ÄBC",
            "AB_CD",
            "AB\u{2010}CD", "１２３", "AB-C\n", "a", "0",
        ]

    @Test func codeIsThePatternItReplaces() throws {
        for s in Self.codeSamples {
            #expect(InputShapes.isCode(s) == (try Self.code.wholeMatch(s)), "\(s.debugDescription)")
        }
    }

    /// `type: code` means a one-time code; its characters are the pattern's business when there is one.
    @Test func aCodesPatternAloneDecidesItsShape() {
        func input(_ pattern: String?) -> InputDecl {
            InputDecl(
                name: "code", kind: .code, pattern: pattern.flatMap(RegexCache.compile), secret: false, prompt: nil,
                location: SourceLocation(file: "f.yaml", line: 1, column: 1))
        }
        let dashed = input("^[A-Z]{4}-[A-Z]{4}$")
        #expect(dashed.problem(with: "ABCD-EFGH") == nil)
        #expect(dashed.problem(with: "ABCDEFGH") == "`code` does not match the pattern ^[A-Z]{4}-[A-Z]{4}$")
        #expect(
            input("^[0-9]{3} [0-9]{3}$").problem(with: "123 456") == nil,
            "a pattern may allow what the default shape does not")
        #expect(input("^.+$").problem(with: "a.b_c") == nil)

        let plain = input(nil)
        for code in ["123456", "ABCD-EFGH", "abcd-1234-ef56", "Q3FFFLYM"] {
            #expect(plain.problem(with: code) == nil, "\(code)")
        }
        for bad in ["", "123 456", "-ABC", "AB--CD", "AB-", "ÄBC", "12\n"] {
            #expect(
                plain.problem(with: bad)?.hasPrefix(
                    "`code` must be a one-time code: letters and digits, in groups joined by single `-`") == true,
                "\(bad.debugDescription)")
        }
    }

    @Test func phoneIsThePatternItReplaces() throws {
        for s in Self.samples {
            #expect(InputShapes.isE164(s) == (try Self.e164.wholeMatch(s)), "\(s.debugDescription)")
        }
    }
}
