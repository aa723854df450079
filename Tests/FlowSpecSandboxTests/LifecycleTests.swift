import AsyncHTTPClient
import Foundation
import SandboxTesting
import Testing

@testable import FlowSpecSandbox

@Suite("Starting, stopping and routing", .timeLimit(.minutes(5)))
struct LifecycleTests {
    @Test("start binds two distinct free ports and reports them in the URLs")
    func bindsPorts() async throws {
        try await withSandbox { s in
            #expect(s.sandbox.port > 0)
            #expect(s.sandbox.legacyPort > 0)
            #expect(s.sandbox.port != s.sandbox.legacyPort)
            #expect(s.base == "http://127.0.0.1:\(s.sandbox.port)")
            #expect(s.legacy == "http://127.0.0.1:\(s.sandbox.legacyPort)")
            let answer = try await s.get("/api/nothing-here")
            #expect(answer.status == 404)
            #expect(answer.json == ["error": "Not found"])
        }
    }

    @Test("stop closes the listener and can be called twice")
    func stopIsGracefulAndIdempotent() async throws {
        let sandbox = try await Sandbox.start(SandboxOptions())
        let port = sandbox.port
        await sandbox.stop()
        await sandbox.stop()
        // The port is free again: a new sandbox can bind exactly it.
        let again = try await Sandbox.start(SandboxOptions(port: port))
        #expect(again.port == port)
        await again.stop()
    }

    @Test("a port already in use is a clear start error, not a hang")
    func portInUse() async throws {
        try await withSandbox { s in
            let error = await #expect(throws: SandboxStartError.self) {
                let clash = try await Sandbox.start(SandboxOptions(port: s.sandbox.port))
                await clash.stop()
            }
            // The system's words, balanced: not NIO's `bind(descriptor:ptr:bytes:): …) (errno: 98)`.
            let text = error.map { "\($0)" } ?? ""
            #expect(text.contains("port \(s.sandbox.port)"), "\(text)")
            #expect(text.contains("in use") && text.contains("(errno"), "\(text)")
            #expect(
                text.filter { $0 == "(" }.count == text.filter { $0 == ")" }.count, "unbalanced parentheses: \(text)")
        }
    }

    @Test("liveVars has every documented key, pointing at accounts of the right kind")
    func liveVars() async throws {
        try await withSandbox { s in
            let vars = s.vars
            let expected = [
                "repairminder_url", "supabase_url", "supabase_anon_key", "traveling_url", "legacy_url", "staff_email",
                "staff_password", "staff2_email", "staff2_password", "magic_staff_email", "deactivated_email",
                "deactivated_password", "quarantined_email",
                "quarantined_password", "customer_email", "multi_customer_email", "multi_customer_company_id",
                "email_code_command", "phone", "phone_otp", "traveling_email", "traveling_password", "legacy_email",
                "legacy_password", "legacy_code_command", "nopassword_email", "archived_email", "archived_password",
                "sms_phone", "sms_code_command", "customer_logout_path", "supabase_refresh_reuse_interval",
                "sms_send_interval_seconds",
                "totp_staff_email", "totp_staff_password", "totp_secret", "recovery_code",
                "customer_me_path", "orders_path",
                "legacy_login_path", "login_codes_single_use", "traveling_refresh_rotation", "expiry_leeway_seconds",
                "login_code_max_attempts", "sandbox_notes",
            ]
            #expect(Set(vars.keys) == Set(expected))
            #expect(vars["repairminder_url"] == s.base)
            #expect(vars["supabase_url"] == s.base)
            #expect(vars["traveling_url"] == s.base)
            #expect(vars["legacy_url"] == s.legacy)
            #expect(vars["email_code_command"]?.contains("${email}") == true)
            #expect(vars["email_code_command"]?.contains("\(s.base)/__sandbox/outbox/latest") == true)
            // The company to pick is not the first one listed, so ignoring companyId is detectable.
            let multi = SandboxAccounts.defaults.customers.first { $0.email == vars["multi_customer_email"] }
            #expect(multi?.companyIDs.first != vars["multi_customer_company_id"])
            #expect(multi?.companyIDs.contains(vars["multi_customer_company_id"] ?? "") == true)
            // The endpoints no document names are served where the variables say; the promises no document
            // makes are ones this sandbox keeps (its breaks undo them).
            let customerMe = try await s.get(vars["customer_me_path"]!)
            #expect(customerMe.status == 401)
            let orders = try await s.get(vars["orders_path"]!)
            #expect(orders.status == 401)
            let legacyLogin = try await s.post(
                vars["legacy_login_path"]!, ["email": "nobody@example.com", "password": "x"], on: s.legacy)
            #expect(legacyLogin.status != 404)
            #expect(vars["login_codes_single_use"] == "true")
            #expect(vars["traveling_refresh_rotation"] == "true")
            #expect(vars["expiry_leeway_seconds"] == "0")
        }
    }

    @Test("the code commands print exactly the latest code when run by a shell with $email set")
    func codeCommandRuns() async throws {
        try await withSandbox { s in
            _ = try await s.post("/api/auth/magic-link/request", ["email": .string(s.vars["magic_staff_email"]!)])
            let expected = try await s.latestCode(to: s.vars["magic_staff_email"]!)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", s.vars["email_code_command"]!]
            process.environment = ["email": s.vars["magic_staff_email"]!, "PATH": "/usr/bin:/bin:/usr/local/bin"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            process.waitUntilExit()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 0)
            #expect(printed == expected)
        }
    }

    @Test("bad JSON is a 400 with an error body; a wrong method is a 405")
    func badRequests() async throws {
        try await withSandbox { s in
            let bad = try await s.send("POST", s.base + "/api/auth/login", raw: "{not json")
            #expect(bad.status == 400)
            #expect(bad.error == "Invalid JSON body")
            let wrongMethod = try await s.get("/api/auth/login")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.headers["allow"] == "POST")
        }
    }
}

@Suite("Stopping with clients still connected", .timeLimit(.minutes(5)))
struct StopWithOpenConnectionsTests {
    @Test("stop returns promptly while a client still holds a keep-alive connection")
    func stopWithKeepAlive() async throws {
        let sandbox = try await Sandbox.start(SandboxOptions())
        // The client keeps an idle connection for 10 minutes, so a server that waits for it would take that long.
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .minutes(10))
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let fixture = SandboxFixture(backend: .live(sandbox, http: http))
        // Not `try`: a request that fails must still reach the client's shutdown below (a client dropped without
        // it traps), so the failure is recorded instead of thrown.
        let opened = try? await fixture.get("/__sandbox/outbox")
        #expect(opened?.status == 200, "the keep-alive connection was not opened")
        // A wall-clock bound is unavoidable here; it is set between the two outcomes, far from both. Healthy:
        // Hummingbird's graceful shutdown sends idle connections a quiesce event and closes them at once (about
        // 1 ms alone; 3 to 11 s seen with the whole suite pinned to one core, where this task waits its turn).
        // Broken (measured by swallowing the quiesce event in the server's child channel): shutdown waits for the
        // client to hang up, which it does only after its idle timeout (60 s by default, 10 minutes here).
        let clock = ContinuousClock()
        let started = clock.now
        await sandbox.stop()
        #expect(clock.now - started < .seconds(120), "stop() waited for the client's keep-alive connection to close")
        try await http.shutdown()
    }
}
