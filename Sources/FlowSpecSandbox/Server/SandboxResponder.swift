import Foundation
import Hummingbird

/// Bridges Hummingbird to the sandbox's plain request/reply handlers.
struct SandboxResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    let handle: @Sendable (SandboxRequest) async -> Reply
    /// Read once per request, before the handler runs: one request sees one instant.
    let clock: any SandboxClock

    /// Bodies of auth requests are tiny; anything larger is a mistake or abuse.
    static let maxBodySize = 1 << 20

    func respond(to request: Request, context: Context) async throws -> Response {
        var request = request
        let bytes: [UInt8]
        do {
            let buffer = try await request.collectBody(upTo: Self.maxBodySize)
            bytes = Array(buffer.readableBytesView)
        } catch {
            return Self.response(for: .error(413, "Request body too large"), isHead: false)
        }
        var headers: [String: String] = [:]
        for field in request.headers {
            headers[field.name.canonicalName] = field.value
        }
        var query: [String: String] = [:]
        for (key, value) in request.uri.queryParameters {
            query[String(key)] = String(value)
        }
        let sandboxRequest = SandboxRequest(
            method: request.method.rawValue, path: request.uri.path, query: query,
            headers: headers, body: bytes, now: clock.now())
        return Self.response(for: await handle(sandboxRequest), isHead: request.method == .head)
    }

    static func response(for reply: Reply, isHead: Bool) -> Response {
        var fields = HTTPFields()
        let text: String?
        switch reply.body {
        case .empty:
            text = nil
        case .json(let json):
            fields[.contentType] = "application/json; charset=utf-8"
            text = json.serialized
        case .text(let value):
            fields[.contentType] = "text/plain; charset=utf-8"
            text = value
        }
        for (name, value) in reply.headers.sorted(by: { $0.key < $1.key }) {
            if let fieldName = HTTPFields.Element.Name(name) { fields[fieldName] = value }
        }
        guard let text, !isHead else {
            return Response(status: .init(code: reply.status), headers: fields)
        }
        return Response(
            status: .init(code: reply.status), headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
