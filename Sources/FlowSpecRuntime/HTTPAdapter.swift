import FlowSpecLanguage
import Foundation

/// One HTTP request as the interpreter built it, before any adapter sees it.
package struct HTTPRequest: Sendable {
    package var method: String
    /// Base URL as evaluated, or nil when the flow has none (scripted runs do not need one).
    package var baseURL: String?
    /// The path without query string, e.g. `/api/auth/login`.
    package var path: String
    package var query: [(String, String)]
    package var headers: [(String, String)]
    /// The bytes sent: as set, or else `json` written out, when first asked for — a scripted backend matches on
    /// `json` and never needs them, so writing them on every scripted request would be work for nothing.
    package var body: Data? {
        get { encodedBody ?? json?.data }
        set { encodedBody = newValue }
    }
    private var encodedBody: Data?
    /// The JSON the body was made from, kept so matchers and reports need not re-parse it.
    package var json: JSONValue?
    package var form: [(String, String)]?

    package init(
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

    package func header(_ name: String) -> String? {
        headers.last { HeaderName.same($0.0, name) }?.1
    }

    package mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { HeaderName.same($0.0, name) }
        headers.append((name, value))
    }

    package var pathWithQuery: String {
        guard !query.isEmpty else { return path }
        return path + "?"
            + query.map { "\(URLEncoding.encode($0.0))=\(URLEncoding.encode($0.1))" }.joined(separator: "&")
    }

    package var url: String { (baseURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? "") + pathWithQuery }

    /// The path as sent, as `url` puts it together and `--verbose` prints it: the base URL's own path (a prefix
    /// such as `/api`) followed by `path`, percent-encoded as sent, without the query. What `expect.requests[].path`
    /// is matched on; `path` alone is the path as the flow writes it.
    package var sentPath: String { RequestURL.pathPrefix(ofBase: baseURL) + path }

    /// Whether an expectation's `path` names this request: the path as sent, or the path as the flow writes it
    /// (without the base URL's prefix, so a scenario holds whatever prefix a backend is deployed under). Either
    /// form selects the request, so `count: 0` can never pass while a request with that path was sent.
    package func isSent(to expected: String) -> Bool { path == expected || sentPath == expected }
}

package struct HTTPResponse: Sendable {
    package var status: Int
    package var headers: [(String, String)]
    package var body: Data
    /// What expressions see as `body`, decided once when the response arrives: null for an empty body; the parsed
    /// JSON when `Content-Type` is a JSON media type and the body is JSON; otherwise the text, as a string —
    /// a `text/plain` `012345` stays the string "012345", and no `Content-Type` at all means text (no sniffing).
    package var json: JSONValue

    package init(status: Int, headers: [(String, String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
        json = Self.bodyValue(body, contentType: Self.header("Content-Type", in: headers))
    }

    /// A body as expressions read it, given the response's `Content-Type` (nil when it has none).
    package static func bodyValue(_ body: Data, contentType: String?) -> JSONValue {
        if body.isEmpty { return .null }
        if MediaType.isJSON(contentType), let parsed = JSONValue.parse(body) { return parsed }
        return .string(String(decoding: body, as: UTF8.self))
    }

    package func header(_ name: String) -> String? { Self.header(name, in: headers) }

    /// The last value of header `name` (any case): what both a response and its `body` decision read.
    static func header(_ name: String, in headers: [(String, String)]) -> String? {
        headers.last { HeaderName.same($0.0, name) }?.1
    }

    package var headerObject: JSONValue {
        var fields: [String: JSONValue] = [:]
        for (name, value) in headers { fields[name.lowercased()] = .string(value) }
        return .object(fields)
    }
}

/// No response arrived: refused, DNS, TLS, timeout, a cut-off body, an answer that is not HTTP. Never an assertion failure.
package struct TransportError: Error, Sendable, CustomStringConvertible {
    package enum Kind: String, Sendable {
        case refused, dns, tls, timeout, truncated, tooLarge = "too large", other
        /// Bytes came back but they are not an HTTP response: a garbage status line, status 000, a broken chunked body.
        case invalidResponse = "invalid response"
        /// The adapter would not send the request (a scripted backend has no exchange for it): the run's own
        /// mistake, which ends it in error, never a network failure or a flow's `unreachable:` branch.
        case notSent = "not sent"
    }
    package var kind: Kind
    package var url: String
    package var cause: String

    package init(_ kind: Kind, url: String, cause: String) {
        self.kind = kind
        self.url = url
        self.cause = cause
    }

    package var description: String { "\(kind.rawValue): \(url): \(cause)" }
}

/// The seam between the interpreter and the network. Whether the other side is scripted or live is the caller's
/// business (`RunContext.requiresBaseURL`), not the seam's.
package protocol HTTPAdapter: Sendable {
    /// Where a run's tasks best execute to reach this adapter without a thread hop (the live adapter's own thread);
    /// nil: anywhere. Only where the code runs changes, never what it does.
    var preferredExecutor: (any TaskExecutor)? { get }
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse
}

extension HTTPAdapter {
    package var preferredExecutor: (any TaskExecutor)? { nil }
}

package enum URLEncoding {
    static let allowed: CharacterSet = {
        var set = CharacterSet.alphanumerics
        set.insert(charactersIn: "-._~")
        return set
    }()

    package static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

/// Header names compare without regard to case (RFC 9110 section 5.1).
package enum HeaderName {
    /// Names are ASCII tokens, so ASCII letters are folded byte by byte without Foundation; a name that is not
    /// ASCII (a hostile backend's) is compared as Foundation compares text, as before.
    package static func same(_ a: String, _ b: String) -> Bool {
        if a.utf8.elementsEqual(b.utf8, by: { lowered($0) == lowered($1) }) { return true }
        if a.utf8.allSatisfy({ $0 < 0x80 }) && b.utf8.allSatisfy({ $0 < 0x80 }) { return false }
        return a.caseInsensitiveCompare(b) == .orderedSame
    }

    private static func lowered(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
}
