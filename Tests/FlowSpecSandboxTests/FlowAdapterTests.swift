import FlowSpecLanguage
import FlowSpecRuntime
import Foundation
import SandboxTesting
import Testing

/// The sandbox as an `HTTPAdapter`: a shipped flow runs through the interpreter against it, in memory and live alike.
@Suite("Shipped flows against the sandbox through SandboxTest's HTTPAdapter", .timeLimit(.minutes(5)))
struct FlowAdapterTests {
    static func supabaseFlows() throws -> SpecSet {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folder = root.appendingPathComponent("flows/supabase")
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".yaml") {
            let file = folder.appendingPathComponent(name)
            files["flows/supabase/\(name)"] = try String(contentsOf: file, encoding: .utf8)
        }
        let specs = SpecSet(sources: files)
        if let error = specs.diagnostics.errors.first { throw error }
        return specs
    }

    @Test(
        "supabase.contract-sign-in signs in with the test phone's code and stores the documented session",
        arguments: SandboxTestMode.allCases)
    func supabaseSignIn(mode: SandboxTestMode) async throws {
        let specs = try Self.supabaseFlows()
        try await SandboxTest.run(mode) { backend in
            let phone = try #require(backend.vars["phone"]), code = try #require(backend.vars["phone_otp"])
            let redactor = Redactor()
            let store = TokenStore(redactor: redactor)
            let context = RunContext(
                specs: specs, adapter: backend, clock: SystemClock(), store: store,
                inputs: ListInputSource(["phone": [phone], "code": [code]]),
                vars: backend.vars.mapValues { .string($0) }, redactor: redactor)
            let result = await Interpreter(context: context).run(flow: "supabase.contract-sign-in")
            #expect(result.outcome == "signed_in", "\(result.ending)")
            #expect(result.path == ["send_otp", "ask_code", "verify", "signed_in"])
            #expect(store.get("supabase", "access_token") != .null)
            #expect(store.get("supabase", "refresh_token") != .null)
        }
    }

    @Test("in memory, a request to a URL of neither sandbox listener is not sent")
    func inMemoryRefusesOtherURLs() async throws {
        try await SandboxTest.run(.router) { backend in
            let request = HTTPRequest(method: "GET", baseURL: "http://127.0.0.1:1", path: "/api/auth/me")
            do throws(TransportError) {
                let answer = try await backend.send(request)
                Issue.record("sent, and answered \(answer.status)")
            } catch {
                #expect(error.kind == .notSent)
                #expect(error.description.contains(SandboxTest.inMemoryBaseURL), "\(error)")
            }
        }
    }
}
