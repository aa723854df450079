import FlowSpecRuntime
import Foundation

/// A backend written as a Swift closure, recording every request: the fake backend the test targets share.
/// With `gatherConcurrent`, requests to `path` that carry `Bearer old` are held until that many have arrived (a
/// burst of refreshes at once).
package actor FakeBackend: HTTPAdapter {
    package typealias Handler = @Sendable (HTTPRequest, Int) -> HTTPResponse
    private let handler: Handler
    package private(set) var requests: [HTTPRequest] = []
    private var gate: (count: Int, path: String)?
    private var parked: [CheckedContinuation<Void, Never>] = []

    package init(gatherConcurrent count: Int = 0, on path: String = "", _ handler: @escaping Handler) {
        self.handler = handler
        if count > 0 { gate = (count, path) }
    }

    package func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        requests.append(request)
        let n = requests.count
        if let gate, request.path == gate.path, request.header("Authorization") == "Bearer old" {
            if parked.count + 1 < gate.count {
                await withCheckedContinuation { parked.append($0) }
            } else {
                parked.forEach { $0.resume() }
                parked = []
            }
        }
        return handler(request, n)
    }

    package func count(_ path: String) -> Int { requests.filter { $0.path == path }.count }
}

package func json(_ status: Int, _ body: String) -> HTTPResponse {
    HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: Data(body.utf8))
}

/// A backend that answers every request at once with one status.
package func answering(_ status: Int) -> FakeBackend { FakeBackend { _, _ in HTTPResponse(status: status) } }
