import Foundation

/// What a handler sees of an HTTP request: plain values, no Hummingbird types, so the backends are
/// ordinary functions that the tests could drive without a socket.
struct SandboxRequest: Sendable {
    let method: String
    let path: String
    let query: [String: String]
    /// Header names lowercased; the last value wins.
    let headers: [String: String]
    let body: [UInt8]
    /// The caller's time, read once per request so one request sees one instant.
    let now: Double

    init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
        body: [UInt8] = [], now: Double
    ) {
        self.method = method.uppercased()
        self.path = path
        self.query = query
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
        self.now = now
    }

    func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// The token of an `Authorization: Bearer …` header (scheme case-insensitive), or nil.
    var bearerToken: String? {
        guard let value = header("authorization") else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    var userAgent: String { header("user-agent") ?? "" }

    /// The body as a JSON object. An empty body counts as `{}` (clients often send none on POSTs that take
    /// no fields); anything that is not a JSON object is a `BadBody`.
    func jsonObject() -> Result<JSON, BadBody> {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return .success(.object([:]))
        }
        guard let value = JSON.parse(body) else { return .failure(.notJSON) }
        guard value.isObject else { return .failure(.notAnObject) }
        return .success(value)
    }

    enum BadBody: Error {
        case notJSON
        case notAnObject
    }
}
