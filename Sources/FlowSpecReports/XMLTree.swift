import FlowSpecLanguage

/// A small, ordered XML element tree: what the JUnit writer builds and what `flowspec merge` reads shards
/// into, so a merged file is laid out exactly like one written by `flowspec run`.
package struct XMLTree: Sendable, Equatable {
    package var name: String
    /// In document order: CI tools and people diff these files, so attribute order must be stable.
    package var attributes: [(name: String, value: String)]
    package var children: [XMLTree]
    /// Character content; only written for elements without children (JUnit has no mixed content).
    package var text: String?

    package init(_ name: String, _ attributes: [(String, String)] = [], children: [XMLTree] = [], text: String? = nil) {
        self.name = name
        self.attributes = attributes.map { (name: $0.0, value: $0.1) }
        self.children = children
        self.text = text
    }

    package static func == (lhs: XMLTree, rhs: XMLTree) -> Bool {
        lhs.name == rhs.name && lhs.text == rhs.text && lhs.children == rhs.children
            && lhs.attributes.map(\.name) == rhs.attributes.map(\.name)
            && lhs.attributes.map(\.value) == rhs.attributes.map(\.value)
    }

    package subscript(attribute name: String) -> String? {
        get { attributes.first { $0.name == name }?.value }
        set {
            if let index = attributes.firstIndex(where: { $0.name == name }) {
                if let newValue { attributes[index].value = newValue } else { attributes.remove(at: index) }
            } else if let newValue {
                attributes.append((name: name, value: newValue))
            }
        }
    }

    package func children(named name: String) -> [XMLTree] { children.filter { $0.name == name } }

    /// The whole document: declaration, then the tree indented by two spaces per level, ending in a newline.
    package var document: String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        write(into: &out, depth: 0)
        return out
    }

    private func write(into out: inout String, depth: Int) {
        let indent = String(repeating: "  ", count: depth)
        out += indent + "<" + name
        for attribute in attributes { out += " \(attribute.name)=\"\(Markup.attribute(attribute.value))\"" }
        if !children.isEmpty {
            out += ">\n"
            for child in children { child.write(into: &out, depth: depth + 1) }
            out += indent + "</\(name)>\n"
        } else if let text, !text.isEmpty {
            out += ">" + Markup.escape(text) + "</\(name)>\n"
        } else {
            out += "/>\n"
        }
    }
}
