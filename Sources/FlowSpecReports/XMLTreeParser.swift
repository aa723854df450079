import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads an XML document into an `XMLTree` with Foundation's parser (libxml2 on Linux): a real parser,
/// so anything that is not well-formed XML is refused with the parser's own explanation.
enum XMLTreeParser {
    struct Failure: Error, CustomStringConvertible { var description: String }

    static func parse(_ text: String) throws(Failure) -> XMLTree {
        let document: XMLDocument
        do {
            document = try XMLDocument(xmlString: text, options: [])
        } catch {
            throw Failure(description: "not well-formed XML (\(error.localizedDescription))")
        }
        guard let root = document.rootElement() else { throw Failure(description: "an XML document without a root element") }
        return tree(root)
    }

    private static func tree(_ element: XMLElement) -> XMLTree {
        let attributes = (element.attributes ?? []).map { ($0.name ?? "", $0.stringValue ?? "") }
        let elements = (element.children ?? []).compactMap { $0 as? XMLElement }
        // Whitespace between child elements is layout, not content.
        let text = elements.isEmpty ? element.stringValue : nil
        return XMLTree(element.name ?? "", attributes, children: elements.map(tree), text: text)
    }
}
