import Foundation
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

/// The byte-by-byte shapes the redactor uses to leave ids and times readable are the regular expressions they
/// replaced, compiled here with ICU as the oracle, on hand-picked and random texts.
@Suite(.timeLimit(.minutes(5))) struct RedactorByteShapeTests {
    static let uuid = RegexCache.compile(
        "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$")!
    static let timestamp = RegexCache.compile("^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}")!

    static let picked = [
        "22222222-2222-4222-8222-222222222222", "ABCDEF01-abcd-4ef0-9999-0123456789af",
        "22222222-2222-4222-8222-22222222222",
        "22222222-2222-4222-8222-2222222222222", "g2222222-2222-4222-8222-222222222222",
        "G2222222-2222-4222-8222-22222222222@", "22222222_2222-4222-8222-222222222222",
        "22222222-2222-4222-8222-222222222222\n", "２2222222-2222-4222-8222-222222222222", "", "2026-11-21T06:30:27Z",
        "2026-11-21 06:30", "2026-11-21T06:3", "2026-11-21X06:30:27Z", "2026-1-21T06:30:27Z", "\n2026-11-21T06:30:27Z",
        "2026-11-21T06:30\u{301}", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "١٢٣٤-11-21T06:30",
    ]

    @Test(arguments: picked) func shapesAgreeWithTheRegularExpressions(text: String) throws {
        #expect(Redactor.isUUID(text) == (try Self.uuid.wholeMatch(text)), "uuid: \(text.debugDescription)")
        #expect(
            Redactor.isTimestamp(text) == (try Self.timestamp.firstMatch(in: text)),
            "timestamp: \(text.debugDescription)")
    }

    /// Random texts built near both shapes: each position a digit, hex letter, separator or something else.
    @Test func shapesAgreeOnRandomTexts() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["0", "9", "a", "F", "g", "G", "@", "/", "`", "-", ":", "T", " ", "Z", "\n", "é", "٣"]
        for _ in 0..<3_000 {
            let length = Int.random(in: 14...38, using: &generator)
            var text = ""
            let template =
                Bool.random(using: &generator) ? "dddddddd-hhhh-hhhh-hhhh-hhhhhhhhhhhh" : "dddd-dd-ddTdd:dd:ddZ"
            for (i, shape) in template.prefix(length).enumerated() {
                // Mostly the shape's own kind of character, sometimes anything.
                if Int.random(in: 0..<12, using: &generator) == 0 || i >= template.count {
                    text += pieces.randomElement(using: &generator)!
                } else {
                    switch shape {
                    case "d": text += String(Int.random(in: 0...9, using: &generator))
                    case "h": text += ["0", "7", "a", "f", "B", "E"].randomElement(using: &generator)!
                    default: text.append(shape)
                    }
                }
            }
            #expect(Redactor.isUUID(text) == (try Self.uuid.wholeMatch(text)), "uuid: \(text.debugDescription)")
            #expect(
                Redactor.isTimestamp(text) == (try Self.timestamp.firstMatch(in: text)),
                "timestamp: \(text.debugDescription)")
        }
    }
}
