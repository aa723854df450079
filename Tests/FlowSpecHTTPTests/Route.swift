import FlowSpecRuntime
import Testing

@testable import FlowSpecHTTP

/// Where a test's request is made from, which decides the client that sends it: on the live adapter's own thread
/// (where live flows run) a plain `http://` request goes through the plain-HTTP client; from anywhere else, through
/// AsyncHTTPClient. Every server, well-behaved or not, must read the same through both.
enum Route: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case plain, pooled

    var testDescription: String { rawValue }

    /// Sends `request` from this route's thread; `tookPlain` says whether the plain-HTTP client sent it.
    func send(_ request: HTTPRequest, with adapter: LiveHTTPAdapter) async -> (
        result: Result<HTTPResponse, TransportError>, tookPlain: Bool
    ) {
        let before = adapter.plainRequests
        let result: Result<HTTPResponse, TransportError>
        switch self {
        case .plain:
            result = await withTaskExecutorPreference(adapter.preferredExecutor) {
                () async -> Result<HTTPResponse, TransportError> in
                do throws(TransportError) { return .success(try await adapter.send(request)) } catch {
                    return .failure(error)
                }
            }
        case .pooled:
            do { result = .success(try await adapter.send(request)) } catch { result = .failure(error) }
        }
        return (result, adapter.plainRequests > before)
    }

    /// Sends a plain `http://` request, which must go through the client this route names.
    func sendPlainHTTP(
        _ request: HTTPRequest, with adapter: LiveHTTPAdapter,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Result<HTTPResponse, TransportError> {
        let (result, tookPlain) = await send(request, with: adapter)
        #expect(
            tookPlain == (self == .plain), "the request did not go through the \(rawValue) client",
            sourceLocation: sourceLocation)
        return result
    }
}
