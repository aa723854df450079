import Foundation
import Testing

@testable import FlowSpecLanguage

/// `SimplePattern` must answer exactly as ICU (NSRegularExpression) does, whenever it answers at all: on the shipped
/// flows' patterns, on hand-picked cases, and on random patterns of its grammar and beyond against random texts.
@Suite(.timeLimit(.minutes(5))) struct SimplePatternTests {
    /// ICU's answers, straight from NSRegularExpression (not through `CompiledRegex`, which now asks `SimplePattern`).
    func icu(_ pattern: String, _ text: String) throws -> (first: Bool, whole: Bool) {
        let regex = try NSRegularExpression(pattern: pattern)
        let whole = NSRange(text.startIndex..., in: text)
        guard let found = regex.firstMatch(in: text, range: whole)?.range else { return (false, false) }
        return (true, found.location == 0 && found.length == whole.length)
    }

    func expectAgreement(_ pattern: String, _ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation)
        throws
    {
        guard let simple = SimplePattern(pattern), let answer = simple.wholeMatch(text) else { return }
        let oracle = try icu(pattern, text)
        #expect(
            answer == oracle.whole && answer == oracle.first,
            "\(pattern.debugDescription) on \(text.debugDescription): \(answer), ICU \(oracle)",
            sourceLocation: sourceLocation)
    }

    @Test func theShippedPatternsAreMatchedWithoutICU() {
        for pattern in [#"^[0-9]{6}$"#, #"^\S+$"#, #"^(staff|customer)$"#, #"^([0-9]{6}|[A-Za-z0-9]{8})$"#] {
            #expect(SimplePattern(pattern) != nil, "\(pattern)")
        }
    }

    @Test func patternsOutsideTheSubsetAreLeftToICU() {
        for pattern in [
            #"[0-9]{6}"#, #"^[0-9]{6}"#, #"^a+b+$"#, #"^a|b$"#, #"^(?i)abc$"#, #"^a+?$"#, #"^a++$"#, #"^\bword$"#,
            #"^[[:alpha:]]$"#, #"^\p{L}+$"#, #"^(a)(b)$"#, #"^a\$"#, #"^\d{2,4}-\w*$"#, #"^(|a)$"#, #"^[a-]$"#, #"^$"#,
            #"^()$"#, #"^a{,3}$"#, #"^\1$"#,
        ] {
            #expect(SimplePattern(pattern) == nil, "\(pattern)")
        }
    }

    /// A pattern `SimplePattern` accepts is compiled by ICU only when a text needs ICU; it must be one ICU accepts,
    /// and ICU must then answer with its own (Unicode) rules.
    @Test func acceptedPatternsAreValidICUAndICUAnswersForUnicodeTexts() throws {
        for pattern in [
            #"^a{9999}$"#, #"^a{0,9999}$"#, #"^[!-~]$"#, #"^[ -/]+$"#, #"^\~\!$"#, #"^(a|b|c|d)$"#, #"^(?:x|y)$"#,
            #"^[\S\d]$"#,
        ]
        where SimplePattern(pattern) != nil {
            #expect((try? NSRegularExpression(pattern: pattern)) != nil, "\(pattern)")
        }
        for pattern in [#"^a{3,2}$"#, #"^[z-a]$"#, #"^[]$"#, #"^a{10000}$"#, #"^[a-\d]$"#] {
            #expect(SimplePattern(pattern) == nil, "\(pattern)")
        }
        let digits = try #require(RegexCache.compile(#"^\d{6}$"#))
        #expect(digits.simple != nil)
        #expect(try digits.wholeMatch("١٢٣٤٥٦")) // Arabic-Indic digits: \d in ICU's Unicode sense
        #expect(try !digits.wholeMatch("١٢٣٤٥"))
        #expect(try digits.firstMatch(in: "123456"))
        #expect(RegexCache.compile("^(a$") == nil)
    }

    @Test func textsWithLineEndsOrUnicodeAreLeftToICU() throws {
        let simple = try #require(SimplePattern(#"^[0-9]{6}$"#))
        for text in ["123456\n", "123456\r\n", "\u{0B}123456", "12345٦", "123456\u{2028}", "é"] {
            #expect(simple.wholeMatch(text) == nil)
        }
        #expect(simple.wholeMatch("123456") == true)
        #expect(simple.wholeMatch("12345") == false)
    }

    @Test func pickedCasesAgreeWithICU() throws {
        let patterns = [
            #"^[0-9]{6}$"#, #"^\S+$"#, #"^(staff|customer)$"#, #"^([0-9]{6}|[A-Za-z0-9]{8})$"#, #"^\d{2,4}-\w$"#,
            #"^[^a-c]?x\.y$"#, #"^(?:ab|a)$"#, #"^[a-zA-Z_\-]{3,}$"#, #"^\+[1-9]\d{1,14}$"#, #"^.{2}$"#, #"^\D\W\s$"#,
            #"^[\d ]+$"#, #"^x*$"#,
        ]
        let texts = [
            "", "123456", "12345", "1234567", "abc", "staff", "customer", "staffcustomer", "abCD12_-", "a b", " ", "ab",
            "12-", "1234-abc_9", "x.y", "dx.y", "ax.y", "+15551234567", "+0555", "!! ", "a", "xxxx", "1 2 3",
        ]
        for pattern in patterns {
            #expect(SimplePattern(pattern) != nil, "\(pattern)")
            for text in texts { try expectAgreement(pattern, text) }
        }
    }

    /// Random patterns from pieces inside and outside the subset, against random printable texts. Seeded, so a
    /// failure names a case that can be replayed.
    @Test(arguments: 1...3) func randomPatternsAgreeWithICU(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let atoms = [
            "a", "b", "z", "0", "7", "-", "_", " ", ".", #"\d"#, #"\w"#, #"\s"#, #"\D"#, #"\W"#, #"\S"#, #"\."#, #"\-"#,
            "[a-c]", "[0-9]", "[^0-9]", "[A-Za-z0-9]", #"[\d_]"#, "[x-z5]", "[ab]", "(", ")", "|", "[", "\\b", "}",
        ]
        let quantifiers = ["", "", "", "?", "*", "+", "{2}", "{1,3}", "{0,}", "{3,2}", "+?", "{2"]
        let alphabet = Array("abz07-_ .xyABZ9!|(){}[]")
        var accepted = 0
        for _ in 0..<400 {
            var body = ""
            for _ in 0..<Int(random.next() % 4 + 1) {
                body +=
                    atoms[Int(random.next() % UInt64(atoms.count))]
                    + quantifiers[Int(random.next() % UInt64(quantifiers.count))]
            }
            var pattern = "^" + body + "$"
            if random.next() % 3 == 0 {
                var other = ""
                for _ in 0..<Int(random.next() % 3 + 1) {
                    other += atoms[Int(random.next() % 20)] + quantifiers[Int(random.next() % 9)]
                }
                pattern = "^(" + body + "|" + other + ")$"
            }
            guard SimplePattern(pattern) != nil else { continue }
            // `CompiledRegex` takes a pattern `SimplePattern` accepts without asking ICU whether it is valid.
            let icuAccepts = (try? NSRegularExpression(pattern: pattern)) != nil
            #expect(icuAccepts, "SimplePattern accepts \(pattern.debugDescription), ICU refuses it")
            guard icuAccepts else { continue }
            accepted += 1
            for _ in 0..<30 {
                let text = String(
                    (0..<Int(random.next() % 8)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
                try expectAgreement(pattern, text)
            }
        }
        #expect(accepted > 50, "too few random patterns were in the subset to prove anything: \(accepted)")
    }
}
