import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads an XML document into an `XMLTree` with Foundation's streaming parser (libxml2 on Linux). Unlike
/// `XMLDocument`, which on Linux recovers from broken input, it stops at the first error, so a truncated or
/// hand-edited report is refused with the parser's line and column instead of being half-merged.
///
/// Nesting is bounded as the JSON parser bounds it: `XMLTree`'s own operations (writing, comparing, freeing) recurse
/// once a level, and a report nested 200,000 deep overflowed the stack when its tree was freed.
enum XMLTreeParser {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Elements nested deeper than this are refused: far more than any JUnit report needs (`testsuites`,
    /// `testsuite`, `testcase`, `failure`, and perhaps a tool's own element inside it).
    static let maxDepth = 256

    static func parse(_ text: String) throws(Failure) -> XMLTree {
        let parser = XMLParser(data: Data(text.utf8))
        let builder = TreeBuilder()
        parser.delegate = builder
        parser.shouldResolveExternalEntities = false
        let ok = parser.parse()
        if let line = builder.tooDeepAt {
            throw Failure(
                description: "elements nested deeper than \(maxDepth) levels at line \(line); "
                    + "a JUnit report nests a handful (testsuites, testsuite, testcase, failure): is this file a JUnit report?"
            )
        }
        if !ok || builder.root == nil {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "no root element"
            throw Failure(
                description:
                    "not well-formed XML at line \(parser.lineNumber), column \(parser.columnNumber) (\(reason))")
        }
        return builder.root!
    }

    /// Collects elements as the parser reports them. Used by one parser on one thread, inside `parse`, and
    /// never shared, which is why a plain class is safe here.
    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [XMLTree] = []
        var texts: [String] = []
        var root: XMLTree?
        /// The line of the first element past `maxDepth`, where reading stopped.
        var tooDeepAt: Int?

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String]
        ) {
            guard stack.count < XMLTreeParser.maxDepth else {
                if tooDeepAt == nil { tooDeepAt = parser.lineNumber }
                parser.abortParsing()
                return
            }
            stack.append(XMLTree(name, Self.ordered(attributes, name: name)))
            texts.append("")
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if !texts.isEmpty { texts[texts.count - 1] += string }
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            if !texts.isEmpty { texts[texts.count - 1] += String(decoding: block, as: UTF8.self) }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            // Nothing more is built once reading stopped at the depth limit.
            guard tooDeepAt == nil else { return }
            var element = stack.removeLast()
            let text = texts.removeLast()
            // Whitespace between child elements is layout, not content.
            element.text = element.children.isEmpty && !text.isEmpty ? text : nil
            if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
        }

        /// The streaming parser hands attributes over as a dictionary; JUnit's usual order is restored so a
        /// merged file reads like one `flowspec run` wrote, other attributes follow by name.
        static func ordered(_ attributes: [String: String], name: String) -> [(String, String)] {
            let known = [
                "name", "tests", "failures", "errors", "skipped", "classname", "file", "line", "message", "type",
                "time", "timestamp", "hostname", "id", "package", "value",
            ]
            let first = known.compactMap { key in attributes[key].map { (key, $0) } }
            return first
                + attributes.filter { !known.contains($0.key) }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
    }
}
