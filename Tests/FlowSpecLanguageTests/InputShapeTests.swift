import Testing
@testable import FlowSpecLanguage

/// The hand-written input shapes accept exactly what the regular expressions they replace accept.
@Suite(.timeLimit(.minutes(5))) struct InputShapeTests {
    static let email = RegexCache.compile(#"^[^@\s]+@[^@\s]+\.[^@\s]+$"#)!
    static let e164 = RegexCache.compile(#"^\+[1-9][0-9]{1,14}$"#)!

    static let samples = [
        "", "@", "a@b", "a@b.c", "qa@example.com", "a@.c", "a@b.", "@b.c", "a@@b.c", "a@b@c.d", "a b@c.d", "a@b .c",
        "a@b.c ", " a@b.c", "a@b..c", "a@.b.c", "a.@b.c", "é@ü.ß", "a@b\u{2003}.c", "a@b\u{0B}.c", "a@b\u{85}.c",
        "a@b\u{2028}c.d", "a@b\u{A0}.c", "a@b\u{200B}.c", "a@b\u{1680}.c", "a@b\u{3000}.c", "a@b\u{1C}.c", "a\t@b.c", "a@b.c\n", "x@y.z.", "x@.y.z", "x@y..", "+15551234567", "+1", "+12", "+0123",
        "+123456789012345", "+1234567890123456", "15551234567", "+1555 1234", "+１２３", "+1٢٣", "++12", "+9",
    ]

    @Test func emailIsThePatternItReplaces() throws {
        for s in Self.samples {
            #expect(InputShapes.isEmail(s) == (try Self.email.wholeMatch(s)), "\(s.debugDescription)")
        }
    }

    @Test func phoneIsThePatternItReplaces() throws {
        for s in Self.samples {
            #expect(InputShapes.isE164(s) == (try Self.e164.wholeMatch(s)), "\(s.debugDescription)")
        }
    }
}
