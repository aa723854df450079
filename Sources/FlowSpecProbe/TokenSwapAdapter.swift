import FlowSpecRuntime
import Synchronization

/// Sends a protected flow's requests with another token in place of the session's: every header value that
/// carries `target` gets `replacement` instead (nil: the header is left out). It remembers the first such request
/// and its answer — the backend's verdict on the swapped token. Requests without the token (a refresh, a retry
/// with a new token) pass unchanged, so the flow and its session behave as the app would.
final class TokenSwapAdapter: HTTPAdapter {
    let inner: any HTTPAdapter
    let target: String
    let replacement: String?
    private let first = Mutex<(request: HTTPRequest, response: HTTPResponse?, failure: TransportError?)?>(nil)

    init(_ inner: any HTTPAdapter, target: String, replacement: String?) {
        self.inner = inner
        self.target = target
        self.replacement = replacement
    }

    var preferredExecutor: (any TaskExecutor)? { inner.preferredExecutor }

    /// The swapped request and what came back, once one was sent.
    var observed: (request: HTTPRequest, response: HTTPResponse?, failure: TransportError?)? { first.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        guard !target.isEmpty, request.headers.contains(where: { $0.1.contains(target) }) else {
            return try await inner.send(request)
        }
        var swapped = request
        swapped.headers = request.headers.compactMap { name, value in
            guard value.contains(target) else { return (name, value) }
            guard let replacement else { return nil }
            return (name, value.replacingOccurrences(of: target, with: replacement))
        }
        let isFirst = first.withLock { $0 == nil }
        do {
            let response = try await inner.send(swapped)
            if isFirst { first.withLock { if $0 == nil { $0 = (swapped, response, nil) } } }
            return response
        } catch {
            if isFirst { first.withLock { if $0 == nil { $0 = (swapped, nil, error) } } }
            throw error
        }
    }
}
