import Foundation
import Testing

@testable import FlowSpecLanguage

/// `TextSearch.contains` answers as Foundation's `contains` does, whether it takes the byte path or not.
@Suite(.timeLimit(.minutes(5))) struct TextSearchTests {
    @Test(arguments: [
        ("", "abc"), ("", ""), ("abc", ""), ("b", "abc"), ("abc", "abc"), ("abcd", "abc"),
        ("HTTP 500", "answered HTTP 500 twice"),
        ("http 500", "answered HTTP 500"), ("aab", "aaab"), ("é", "e\u{301}x"), ("N", "N\u{65E}"), ("x", "é x"),
        ("ß", "Strasse"),
    ])
    func answersAsFoundationDoes(_ needle: String, _ text: String) {
        #expect(TextSearch.contains(needle, in: text) == text.contains(needle), "\"\(needle)\" in \"\(text)\"")
    }

    @Test func findsEveryPlaceAByteSearchCanStart() {
        let text = "ab" + String(repeating: "a", count: 40) + "abc"
        for cut in 0..<text.count {
            let needle = String(text.dropFirst(cut))
            #expect(TextSearch.contains(needle, in: text))
            #expect(!TextSearch.contains(needle + "!", in: text))
        }
    }
}
