// libyaml is the parser Yams wraps (Yams vendors it as the CYaml module). FlowSpec reads its events directly: Yams'
// node tree (every node hashed for its duplicate check, tags resolved, then converted once more into `YAMLNode`)
// was most of the work of loading a large flow's YAML, which runs on one core. Yams' own rules are kept — see
// `YAMLComposerTests`, which holds this composer equal to Yams on every shipped file and on thousands of broken ones.
internal import CYaml

/// Why a text is not one YAML document FlowSpec can read, in the terms `YAMLLoader` turns into diagnostics.
enum YAMLComposeError: Error {
    /// libyaml refused the text (its scanner or parser), or the stream holds something a single document cannot.
    case syntax(problem: String, context: (text: String, line: Int)?, line: Int, column: Int)
    /// The bytes are not readable text (libyaml's reader).
    case reader(problem: String)
    case outOfMemory
    /// A mapping names `key` twice: first at `first`, again at `second` (line, column).
    case duplicateKey(String, first: (line: Int, column: Int), second: (line: Int, column: Int))
    /// Well-formed YAML that FlowSpec does not accept (a local tag, a key that is not text, an alias bomb).
    case refused(Diagnostic)
}

/// Builds one `YAMLNode` tree from libyaml's event stream, with the rules Yams applied before:
/// - a single document, else "but found another document";
/// - aliases stand for the node their anchor named most recently before them (a node's own anchor counts only once
///   it is complete), an unknown one is "found undefined alias";
/// - a mapping's keys are compared as Yams compares them (same text and same resolved tag) once the mapping ends;
/// - FlowSpec's own refusals (a `!local` tag, a key that is a list or mapping, more than a million nodes once aliases
///   are expanded) are reported only if the whole document is otherwise valid, the first in document order.
final class YAMLComposer {
    /// Nodes a document may expand to, aliases counted at their full size: stops "billion laughs" documents while
    /// leaving room for large ordinary files.
    static let nodeBudget = 1_000_000
    static let nodeBudgetMessage =
        "too many nodes: the document has more than 1,000,000, each alias counted as the nodes it repeats"
    static let nodeBudgetHint =
        "FlowSpec reads at most 1,000,000 nodes a file; split it into smaller files, or repeat fewer aliases"

    private let file: String
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let event: UnsafeMutablePointer<yaml_event_t>
    /// Anchored nodes by name, with the resolved tag of a scalar (for key comparison) and their expanded size.
    private var anchors: [String: (node: YAMLNode, tag: String?, size: Int)] = [:]
    /// Nodes so far with aliases expanded, capped just past the budget so sizes cannot overflow.
    private var expandedNodes = 0
    private var firstRefusal: Diagnostic?

    private init(file: String) {
        self.file = file
        parser = .allocate(capacity: 1)
        event = .allocate(capacity: 1)
        event.initialize(to: yaml_event_t())
        yaml_parser_initialize(parser)
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
        event.deallocate()
    }

    /// The document in `text`, or nil when it holds none (empty, or only comments).
    static func compose(_ text: String, file: String) throws(YAMLComposeError) -> YAMLNode? {
        var text = text
        // `withUTF8` rethrows untyped, so the typed error rides out in a Result.
        let composed: Result<YAMLNode?, YAMLComposeError> = text.withUTF8 { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return .success(nil) }
            let composer = YAMLComposer(file: file)
            yaml_parser_set_input_string(composer.parser, base, bytes.count)
            return Result { () throws(YAMLComposeError) in try composer.singleDocument() }
        }
        return try composed.get()
    }

    private func singleDocument() throws(YAMLComposeError) -> YAMLNode? {
        _ = try next() // stream start
        var current = try next()
        guard current.type != YAML_STREAM_END_EVENT else { return nil }
        current = try next() // past the document start, the root's first event
        let root = try node(from: current).node
        _ = try next() // document end
        let after = try next()
        if after.type != YAML_STREAM_END_EVENT {
            throw .syntax(
                problem: "but found another document", context: ("expected a single document in the stream", 1),
                line: after.line, column: after.column)
        }
        if let firstRefusal { throw .refused(firstRefusal) }
        return root
    }

    /// A node, the resolved tag when it is a scalar, and its size with aliases expanded.
    private func node(from start: Event) throws(YAMLComposeError) -> (node: YAMLNode, tag: String?, size: Int) {
        let location = SourceLocation(file: file, line: start.line, column: start.column)
        let built: (node: YAMLNode, tag: String?, size: Int)
        switch start.type {
        case YAML_ALIAS_EVENT:
            guard let name = start.anchor, let anchored = anchors[name] else {
                throw .syntax(problem: "found undefined alias", context: nil, line: start.line, column: start.column)
            }
            count(anchored.size, at: location)
            return anchored
        case YAML_SCALAR_EVENT:
            count(1, at: location)
            if let tag = start.tag, tag.hasPrefix("!"), tag != "!", !tag.hasPrefix("!!") {
                refuse(
                    .error(
                        location, "`\(tag)` starts with `!`, which YAML reads as a tag, not as text",
                        hint: "quote the whole value, e.g. when: \"!exists(body.token)\""))
            }
            built = (YAMLNode(.scalar(start.value, quoted: start.quoted), at: location), Self.resolvedTag(start.tag), 1)
        case YAML_SEQUENCE_START_EVENT:
            count(1, at: location)
            var items: [YAMLNode] = [], size = 1
            var current = try next()
            while current.type != YAML_SEQUENCE_END_EVENT {
                let item = try node(from: current)
                items.append(item.node)
                size = Self.capped(size + item.size)
                current = try next()
            }
            built = (YAMLNode(.sequence(items), at: location), nil, size)
        case YAML_MAPPING_START_EVENT:
            count(1, at: location)
            built = try mapping(at: location)
        default:
            throw .syntax(problem: "unexpected YAML event", context: nil, line: start.line, column: start.column)
        }
        if let name = start.anchor { anchors[name] = built }
        return built
    }

    private func mapping(at location: SourceLocation) throws(YAMLComposeError) -> (
        node: YAMLNode, tag: String?, size: Int
    ) {
        var pairs: [(key: YAMLNode, value: YAMLNode)] = [], size = 1
        var keys = MappingKeys()
        var current = try next()
        while current.type != YAML_MAPPING_END_EVENT {
            // Where the key is written (an alias key's node carries its anchor's location). No FlowSpec file (flow,
            // scenario, vars) has a key that is a list or a mapping, and JSON, which every key ends up in, cannot
            // have one; that is said before anything inside such a key, as the document reads.
            let at = SourceLocation(file: file, line: current.line, column: current.column)
            if current.type == YAML_SEQUENCE_START_EVENT || current.type == YAML_MAPPING_START_EVENT {
                refuseKey(current.type == YAML_SEQUENCE_START_EVENT ? "a list" : "a mapping", at: at)
            }
            let key = try node(from: current)
            if let text = key.node.scalar {
                keys.add(KeyIdentity(text: text, tag: key.tag), at: at)
            } else if current.type == YAML_ALIAS_EVENT {
                refuseKey(key.node.kindName, at: at)
            }
            let value = try node(from: try next())
            pairs.append((key.node, value.node))
            size = Self.capped(size + key.size + value.size)
            current = try next()
        }
        // As Yams: of the repeated keys, the first in text order is named, with where it was first written.
        if let repeated = keys.repeated.min(by: { $0.key < $1.key }) {
            throw .duplicateKey(
                repeated.key, first: (repeated.first.line, repeated.first.column),
                second: (repeated.second.line, repeated.second.column))
        }
        return (YAMLNode(.mapping(pairs), at: location), nil, size)
    }

    private func refuseKey(_ kind: String, at location: SourceLocation) {
        refuse(
            .error(
                location, "a key must be plain text, found \(kind) used as a key",
                hint: "write the key as text; to use `[`, `{` or `?` in a key, quote it"))
    }

    private struct KeyIdentity: Hashable {
        var text: String
        var tag: String?
    }

    /// A mapping's keys so far, and each repeated one with its first and second place. Small mappings (almost all)
    /// are searched in order: hashing every key of every mapping costs more than searching a few keys.
    private struct MappingKeys {
        private var keys: [(identity: KeyIdentity, first: SourceLocation, repeated: Bool)] = []
        private var index: [KeyIdentity: Int]?
        private(set) var repeated: [(key: String, first: SourceLocation, second: SourceLocation)] = []

        mutating func add(_ identity: KeyIdentity, at location: SourceLocation) {
            let earlier = index.map { $0[identity] } ?? keys.firstIndex { $0.identity == identity }
            if let earlier {
                if !keys[earlier].repeated {
                    keys[earlier].repeated = true
                    repeated.append((identity.text, keys[earlier].first, location))
                }
                return
            }
            keys.append((identity, location, false))
            if index != nil {
                index?[identity] = keys.count - 1
            } else if keys.count > 16 {
                index = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1.identity, $0) })
            }
        }
    }

    /// A scalar's tag as Yams resolves it without implicit typing: none, or the non-specific `!`, is a string.
    private static func resolvedTag(_ tag: String?) -> String? {
        guard let tag, tag != "!", tag != stringTag else { return nil }
        return tag
    }
    private static let stringTag = "tag:yaml.org,2002:str"

    private func count(_ nodes: Int, at location: SourceLocation) {
        expandedNodes = Self.capped(expandedNodes + nodes)
        if expandedNodes > Self.nodeBudget {
            // Said for both ways of getting here: a huge file without aliases, and a few lines of aliases of aliases.
            refuse(.error(location, Self.nodeBudgetMessage, hint: Self.nodeBudgetHint))
        }
    }

    private static func capped(_ size: Int) -> Int { min(size, nodeBudget + 1) }

    private func refuse(_ diagnostic: Diagnostic) {
        if firstRefusal == nil { firstRefusal = diagnostic }
    }

    // MARK: Events

    /// The parts of a libyaml event FlowSpec reads, copied out so the C event can be freed at once.
    private struct Event {
        var type: yaml_event_type_t
        var line: Int
        var column: Int
        var anchor: String? = nil
        var tag: String? = nil
        var value: String = ""
        var quoted = false
    }

    private func next() throws(YAMLComposeError) -> Event {
        guard yaml_parser_parse(parser, event) == 1 else { throw failure() }
        defer { yaml_event_delete(event) }
        let raw = event.pointee
        var copied = Event(type: raw.type, line: Int(raw.start_mark.line) + 1, column: Int(raw.start_mark.column) + 1)
        switch raw.type {
        case YAML_ALIAS_EVENT:
            copied.anchor = Self.text(raw.data.alias.anchor)
        case YAML_SCALAR_EVENT:
            let scalar = raw.data.scalar
            copied.anchor = Self.text(scalar.anchor)
            // A quoted or block scalar without a tag is a string, whatever tag it was given by a directive.
            copied.tag = scalar.quoted_implicit == 1 ? Self.stringTag : Self.text(scalar.tag)
            copied.value =
                scalar.value.map { Self.scalarText(UnsafeBufferPointer(start: $0, count: Int(scalar.length))) } ?? ""
            copied.quoted = scalar.style != YAML_PLAIN_SCALAR_STYLE && scalar.style != YAML_ANY_SCALAR_STYLE
        case YAML_SEQUENCE_START_EVENT:
            copied.anchor = Self.text(raw.data.sequence_start.anchor)
        case YAML_MAPPING_START_EVENT:
            copied.anchor = Self.text(raw.data.mapping_start.anchor)
        default:
            break
        }
        return copied
    }

    /// A scalar's text. A byte-order mark that starts it is dropped, as Yams' decoding (Foundation's) did: it is
    /// invisible, and a key that began with one would be reported as an unknown key that looks right.
    private static func scalarText(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[3...]), as: UTF8.self)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    private func failure() -> YAMLComposeError {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? "unknown problem"
        switch state.error {
        case YAML_MEMORY_ERROR:
            return .outOfMemory
        case YAML_READER_ERROR:
            return .reader(problem: problem)
        default:
            let context = state.context.map { (String(cString: $0), Int(state.context_mark.line) + 1) }
            return .syntax(
                problem: problem, context: context, line: Int(state.problem_mark.line) + 1,
                column: Int(state.problem_mark.column) + 1)
        }
    }
}
