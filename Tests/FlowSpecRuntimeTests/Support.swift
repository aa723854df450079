import Foundation
import TestSupport

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

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
