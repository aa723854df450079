import Foundation
import TestSupport

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

/// A backend written as a Swift closure, recording every request. `hold` parks requests until `release`.
actor FakeBackend: HTTPAdapter {
    typealias Handler = @Sendable (HTTPRequest, Int) -> HTTPResponse
    private let handler: Handler
    private(set) var requests: [HTTPRequest] = []
    private var gate: (count: Int, path: String)?
    private var parked: [CheckedContinuation<Void, Never>] = []

    init(gatherConcurrent count: Int = 0, on path: String = "", _ handler: @escaping Handler) {
        self.handler = handler
        if count > 0 { gate = (count, path) }
    }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
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

    func count(_ path: String) -> Int { requests.filter { $0.path == path }.count }
}

func json(_ status: Int, _ body: String) -> HTTPResponse {
    HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: Data(body.utf8))
}

func makeContext(
    _ specs: SpecSet, _ backend: some HTTPAdapter, store: TokenStore.Snapshot = [:], inputs: [String: [String]] = [:],
    clock: VirtualClock = VirtualClock(start: 1_000)
) -> (RunContext, TokenStore, Redactor) {
    let redactor = Redactor()
    let tokenStore = TokenStore(store, redactor: redactor)
    var context = RunContext(
        specs: specs, adapter: backend, clock: clock, store: tokenStore, inputs: ListInputSource(inputs),
        vars: [:], redactor: redactor)
    // The fakes stand in for scripted exchanges: matched on method and path, so the flows need no base URL.
    context.requiresBaseURL = false
    return (context, tokenStore, redactor)
}

let sessionYAML = """
    session: t.session
    namespace: t
    headers: { Authorization: "Bearer ${store.access}" }
    refresh:
      flow: t.refresh
      when: status == 401
      ahead: { expires_at: store.expires_at, margin: 60s }
      on_failure: { outcome: signed_out, reason: "Session expired" }
    """

let refreshYAML = """
    flow: t.refresh
    start: r
    states:
      r:
        request: { method: POST, path: /refresh, json: { refreshToken: "${store.refresh}" } }
        on:
          - when: status == 200
            store: { access: body.access, refresh: body.refresh, expires_at: now + 900 }
            goto: ok
          - else: true
            goto: failed
      ok: { end: refreshed, success: true }
      failed: { end: failed, success: false, reason: "refresh refused" }
    """

let meYAML = """
    flow: t.me
    session: t.session
    start: me
    states:
      me:
        request: { method: GET, path: /me }
        on:
          - when: status == 200
            set: { id: body.id }
            goto: ok
          - when: status == 401
            goto: still_unauthorized
      ok: { end: ok, success: true, outputs: { id: id } }
      still_unauthorized: { end: signed_out, success: false }
    """

func sessionSpecs() throws -> SpecSet {
    try TestSpecs.load(["t/session.yaml": sessionYAML, "t/refresh.yaml": refreshYAML, "t/me.yaml": meYAML])
}
