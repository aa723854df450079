import FlowSpecLanguage
import Foundation

/// One HTTP request as the interpreter built it, before any adapter sees it.
public struct HTTPRequest: Sendable {
    public var method: String
    /// Base URL as evaluated, or nil when the flow has none (scripted runs do not need one).
    public var baseURL: String?
    /// The path without query string, e.g. `/api/auth/login`.
    public var path: String
    public var query: [(String, String)]
    public var headers: [(String, String)]
    /// The bytes sent: as set, or else `json` written out, when first asked for — a scripted backend matches on
    /// `json` and never needs them, so writing them on every scripted request would be work for nothing.
    public var body: Data? {
        get { encodedBody ?? json?.data }
        set { encodedBody = newValue }
    }
    private var encodedBody: Data?
    /// The JSON the body was made from, kept so matchers and reports need not re-parse it.
    public var json: JSONValue?
    public var form: [(String, String)]?

    public init(
        method: String, baseURL: String?, path: String, query: [(String, String)] = [],
        headers: [(String, String)] = [],
        body: Data? = nil, json: JSONValue? = nil, form: [(String, String)]? = nil
    ) {
        self.method = method
        self.baseURL = baseURL
        self.path = path
        self.query = query
        self.headers = headers
        encodedBody = body
        self.json = json
        self.form = form
    }

    public func header(_ name: String) -> String? {
        headers.last { HeaderName.same($0.0, name) }?.1
    }

    public mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { HeaderName.same($0.0, name) }
        headers.append((name, value))
    }

    public var pathWithQuery: String {
        guard !query.isEmpty else { return path }
        return path + "?"
            + query.map { "\(URLEncoding.encode($0.0))=\(URLEncoding.encode($0.1))" }.joined(separator: "&")
    }

    public var url: String { (baseURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? "") + pathWithQuery }

    /// The path as sent, as `url` puts it together and `--verbose` prints it: the base URL's own path (a prefix
    /// such as `/api`) followed by `path`, percent-encoded as sent, without the query. What `expect.requests[].path`
    /// is matched on; `path` alone is the path as the flow writes it.
    public var sentPath: String { RequestURL.pathPrefix(ofBase: baseURL) + path }

    /// Whether an expectation's `path` names this request: the path as sent, or the path as the flow writes it
    /// (without the base URL's prefix, so a scenario holds whatever prefix a backend is deployed under). Either
    /// form selects the request, so `count: 0` can never pass while a request with that path was sent.
    public func isSent(to expected: String) -> Bool { path == expected || sentPath == expected }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: Data
    /// What expressions see as `body`, decided once when the response arrives: null for an empty body; the parsed
    /// JSON when `Content-Type` is a JSON media type and the body is JSON; otherwise the text, as a string —
    /// a `text/plain` `012345` stays the string "012345", and no `Content-Type` at all means text (no sniffing).
    public var json: JSONValue

    public init(status: Int, headers: [(String, String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
        json = Self.bodyValue(body, contentType: Self.header("Content-Type", in: headers))
    }

    /// A body as expressions read it, given the response's `Content-Type` (nil when it has none).
    public static func bodyValue(_ body: Data, contentType: String?) -> JSONValue {
        if body.isEmpty { return .null }
        if MediaType.isJSON(contentType), let parsed = JSONValue.parse(body) { return parsed }
        return .string(String(decoding: body, as: UTF8.self))
    }

    public func header(_ name: String) -> String? { Self.header(name, in: headers) }

    /// The last value of header `name` (any case): what both a response and its `body` decision read.
    static func header(_ name: String, in headers: [(String, String)]) -> String? {
        headers.last { HeaderName.same($0.0, name) }?.1
    }

    public var headerObject: JSONValue {
        var fields: [String: JSONValue] = [:]
        for (name, value) in headers { fields[name.lowercased()] = .string(value) }
        return .object(fields)
    }
}

/// No response arrived: refused, DNS, TLS, timeout, a cut-off body, an answer that is not HTTP. Never an assertion failure.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case refused, dns, tls, timeout, truncated, tooLarge = "too large", other
        /// Bytes came back but they are not an HTTP response: a garbage status line, status 000, a broken chunked body.
        case invalidResponse = "invalid response"
        /// The adapter would not send the request (a scripted backend has no exchange for it): the run's own
        /// mistake, which ends it in error, never a network failure or a flow's `unreachable:` branch.
        case notSent = "not sent"
    }
    public var kind: Kind
    public var url: String
    public var cause: String

    public init(_ kind: Kind, url: String, cause: String) {
        self.kind = kind
        self.url = url
        self.cause = cause
    }

    public var description: String { "\(kind.rawValue): \(url): \(cause)" }
}

/// The seam between the interpreter and the network. Whether the other side is scripted or live is the caller's
/// business (`RunContext.requiresBaseURL`), not the seam's.
public protocol HTTPAdapter: Sendable {
    /// Where a run's tasks best execute to reach this adapter without a thread hop (the live adapter's own thread);
    /// nil: anywhere. Only where the code runs changes, never what it does.
    var preferredExecutor: (any TaskExecutor)? { get }
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse
}

extension HTTPAdapter {
    public var preferredExecutor: (any TaskExecutor)? { nil }
}

public enum URLEncoding {
    static let allowed: CharacterSet = {
        var set = CharacterSet.alphanumerics
        set.insert(charactersIn: "-._~")
        return set
    }()

    public static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

/// Header names compare without regard to case (RFC 9110 section 5.1).
public enum HeaderName {
    /// Names are ASCII tokens, so ASCII letters are folded byte by byte without Foundation; a name that is not
    /// ASCII (a hostile backend's) is compared as Foundation compares text, as before.
    public static func same(_ a: String, _ b: String) -> Bool {
        if a.utf8.elementsEqual(b.utf8, by: { lowered($0) == lowered($1) }) { return true }
        if a.utf8.allSatisfy({ $0 < 0x80 }) && b.utf8.allSatisfy({ $0 < 0x80 }) { return false }
        return a.caseInsensitiveCompare(b) == .orderedSame
    }

    private static func lowered(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
}
