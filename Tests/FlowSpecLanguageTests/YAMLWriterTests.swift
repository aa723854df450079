import Testing
@testable import FlowSpecLanguage

/// `YAMLWriter` writes what the loader reads back as the same nodes: the same text, the same plain/quoted reading.
@Suite struct YAMLWriterTests {
    static func shape(_ node: YAMLNode) -> String {
        switch node.content {
        case .scalar(let text, let quoted): return (quoted ? "quoted:" : "plain:") + text
        case .mapping(let pairs): return "{" + pairs.map { "\($0.key.scalar ?? "?")=\(shape($0.value))" }.joined(separator: ",") + "}"
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
