import Testing

@testable import FlowSpecLanguage

/// `YAMLWriter` writes what the loader reads back as the same nodes: the same text, the same plain/quoted reading.
@Suite(.timeLimit(.minutes(5))) struct YAMLWriterTests {
    static func shape(_ node: YAMLNode) -> String {
        switch node.content {
        case .scalar(let text, let quoted): return (quoted ? "quoted:" : "plain:") + text
        case .mapping(let pairs):
            return "{" + pairs.map { "\($0.key.scalar ?? "?")=\(shape($0.value))" }.joined(separator: ",") + "}"
        case .sequence(let items): return "[" + items.map(shape).joined(separator: ",") + "]"
        }
    }

    @Test(arguments: [
        "a: 1\nb: true\nc: null\nd: text\n",
        "json: { userId: \"${user_id}\", n: 5, s: \"5\", empty: \"\", list: [1, \"two\", { x: y }] }\n",
        "when: '(status >= 200 && status < 300) && body.x == \"a: b\"'\nset: { n: attempts + 1, t: \"${a} + 1\", neg: -1, e: \"\" }\n",
        "store:\n  expires_at: now + body.expiresIn\n  code: headers[\"x-code\"]\n",
        "reason: \"line one\\nline two\"\nodd: \"#not a comment\"\nkey with spaces: 'single'\n",
        "items:\n  - a\n  - { b: 1, c: [] }\n  - []\n  - {}\n  - - nested\n    - list\n",
        "\"quoted key\": 1\n\"true\": yes\n",
    ])
    func roundTripsToTheSameNodes(_ text: String) throws {
        let node = try YAMLLoader.load(text: text, file: "a.yaml").get()
        let written = YAMLWriter.document(node)
        let again = try YAMLLoader.load(text: written, file: "b.yaml").get()
        #expect(Self.shape(again) == Self.shape(node), "\(written)")
    }
}

/// One escaping policy for every output format (YAML scalars here, XML and HTML in `Markup`).
@Suite(.timeLimit(.minutes(5))) struct EscapingTests {
    @Test func yamlQuotedEscapesWhatYAMLCannotPrint() throws {
        #expect(YAMLWriter.quoted("a\"b\\c\u{7F}\u{0}") == "\"a\\\"b\\\\c\\u007F\\u0000\"")
        #expect(YAMLWriter.quoted("line\nnext\u{85}\u{9B}\u{2028}") == "\"line\\nnext\\u0085\\u009B\\u2028\"")
        let text = "colon: # dash - \"quote\" \u{1B}[31m \u{2028} é"
        let node = try YAMLLoader.load(text: "k: " + YAMLWriter.quoted(text), file: "q.yaml").get()
        #expect(node["k"]?.scalar == text, "read back exactly")
    }

    @Test func markupEscapesOneWayForContentAndAttributes() {
        #expect(Markup.escape("a&b<c>d\"e'f\ng\th") == "a&amp;b&lt;c&gt;d&quot;e&#39;f\ng\th")
        #expect(Markup.attribute("a\"e'f\ng\th\rj") == "a&quot;e&#39;f&#10;g&#9;h&#13;j")
        #expect(
            Markup.escape("nul\u{0} esc\u{1B} \u{FFFE}") == "nul\\u0000 esc\\u001B \\uFFFE",
            "what XML cannot carry is shown, not dropped")
        #expect(Markup.escape("emoji 😀 and é") == "emoji 😀 and é")
    }
}
