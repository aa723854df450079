import SandboxTesting
import Testing

@testable import FlowSpecSandbox

@Suite("The /__sandbox outbox", .timeLimit(.minutes(5)))
struct OutboxTests {
    @Test(
        "lists messages (filtered by ?to=), serves the latest code as text/plain, 404 when none, and clears",
        arguments: SandboxTestMode.allCases)
    func outbox(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            #expect(try await s.get("/__sandbox/outbox").json == [])
            let missing = try await s.get("/__sandbox/outbox/latest?to=customer@example.com")
            #expect(missing.status == 404)

            _ = try await s.post("/api/customer/auth/request-magic-link", ["email": "customer@example.com"])
            _ = try await s.post("/api/customer/auth/request-magic-link", ["email": "customer@example.com"])
            _ = try await s.post("/api/auth/magic-link/request", ["email": "magic@example.com"])

            guard case .array(let all) = try await s.get("/__sandbox/outbox").json else {
                Issue.record("not a list"); return
            }
            #expect(all.count == 3)
            guard case .array(let mine) = try await s.get("/__sandbox/outbox?to=CUSTOMER@example.com").json else {
                Issue.record("not a list"); return
            }
            #expect(mine.count == 2)
            for message in mine {
                #expect(message["to"] == "customer@example.com")
                #expect(message["channel"] == "email")
                #expect(message["subject"]?.stringValue?.isEmpty == false)
                #expect(message["sentAt"]?.stringValue?.contains("T") == true)
            }
            let latest = try await s.get("/__sandbox/outbox/latest?to=customer@example.com")
            #expect(latest.status == 200)
            #expect(latest.headers["content-type"]?.hasPrefix("text/plain") == true)
            #expect(latest.text == mine.last?["code"]?.stringValue)
            // The earlier code was replaced by the later one.
            let stale = try await s.post(
                "/api/customer/auth/verify-code",
                ["email": "customer@example.com", "code": mine.first!["code"]!])
            #expect(stale.status == 400 || mine.first?["code"] == mine.last?["code"])

            let cleared = try await s.send("DELETE", s.base + "/__sandbox/outbox")
            #expect(cleared.status == 204)
            #expect(try await s.get("/__sandbox/outbox").json == [])
            #expect(try await s.get("/__sandbox/outbox/latest?to=customer@example.com").status == 404)
        }
    }

    @Test("phones match with or without + (a raw + in a query arrives as a space)", arguments: SandboxTestMode.allCases)
    func phoneAddresses(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            _ = try await s.supabase("POST", "/otp", ["phone": "+41791234567"])
            let encoded = try await s.get("/__sandbox/outbox/latest?to=%2B41791234567")
            let raw = try await s.get("/__sandbox/outbox/latest?to=+41791234567")
            let digits = try await s.get("/__sandbox/outbox/latest?to=41791234567")
            #expect(encoded.status == 200)
            #expect(raw.text == encoded.text)
            #expect(digits.text == encoded.text)
        }
    }
}
