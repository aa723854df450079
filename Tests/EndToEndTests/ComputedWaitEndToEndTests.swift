import Foundation
import Testing

/// A computed scenario `wait:` through the built binary: `30 - now % 30` moves the virtual clock to the next TOTP
/// window, so the second login sends the next window's code (the scripted backend accepts each code once).
@Suite(.timeLimit(.minutes(5))) struct ComputedWaitEndToEndTests {
    static let flow = """
        flow: demo.login-totp
        defaults: { base_url: "http://localhost:9" }
        inputs:
          code: { type: code, secret: true }
        start: verify
        states:
          verify:
            request: { method: POST, path: /mfa, json: { code: "${inputs.code}" } }
            on:
              - when: status == 200
                goto: signed_in
              - else: true
                goto: refused
          signed_in: { end: signed_in, success: true, outputs: { at: now } }
          refused: { end: refused, success: false }

        """

    /// From 1700000017 the codes for JBSWY3DPEHPK3PXP are 367665, then 870960 from 1700000040 (RFC 6238).
    static func scenario(wait: String) -> String {
        """
        scenario: two authenticator logins in a row
        clock: 1700000017
        vars: { totp_secret: JBSWY3DPEHPK3PXP }
        exchanges:
          - request: { method: POST, path: /mfa, json: { code: "367665" } }
            response: { status: 200 }
          - request: { method: POST, path: /mfa, json: { code: "870960" } }
            response: { status: 200 }
        steps:
          - run: demo.login-totp
            inputs: { code: "${totp(vars.totp_secret)}" }
            expect: { outcome: signed_in, outputs: { at: 1700000017 } }
          - wait: \(wait)
          - run: demo.login-totp
            inputs: { code: "${totp(vars.totp_secret)}" }
            expect: { outcome: signed_in, outputs: { at: 1700000040 } }

        """
    }

    static func folder(wait: String) throws -> URL {
        let dir = try FlowSpecBinary.temporaryDirectory()
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("flows/demo"), withIntermediateDirectories: true)
        try flow.write(to: dir.appendingPathComponent("flows/demo/login-totp.yaml"), atomically: true, encoding: .utf8)
        try scenario(wait: wait).write(to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test func waitingToTheNextWindowGivesTheSecondLoginTheNextCode() async throws {
        let dir = try Self.folder(wait: "30 - now % 30")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try await FlowSpecBinary.run(["run", "--flows", "flows", "s.yaml", "--verbose"], in: dir)
        #expect(result.status == 0, "\(result.all)")
        #expect(result.stdout.contains("1 passed"), "\(result.stdout)")
        for code in ["367665", "870960"] { #expect(!result.all.contains(code), "a TOTP code is masked: \(result.all)") }
    }

    @Test func aConstantWaitInsideTheWindowSendsTheSameCodeTwice() async throws {
        let dir = try Self.folder(wait: "5s")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try await FlowSpecBinary.run(["run", "--flows", "flows", "s.yaml"], in: dir)
        #expect(result.status == 1, "\(result.all)")
        #expect(result.stdout.contains("step 3"), "\(result.stdout)")
    }

    @Test func aWaitThatReadsTheStoreIsALocatedLoadError() async throws {
        let dir = try Self.folder(wait: "store.expires_at - now")
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try await FlowSpecBinary.run(["check", "flows", "s.yaml"], in: dir)
        #expect(result.status == 2, "\(result.all)")
        #expect(
            result.all.contains("s.yaml:13:11: error: a scenario `wait` can read `now` and `vars` only; found `store`"),
            "\(result.all)")
    }
}
