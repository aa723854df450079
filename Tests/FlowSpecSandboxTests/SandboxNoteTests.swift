import SandboxTesting
import Testing

@testable import FlowSpecSandbox

/// The sandbox-only staff notes (`/api/sandbox/notes`, docs/sandbox.md): the object a probe needs to try broken
/// object-level authorization (OWASP API1). Only the author reads a note; everyone else gets the 404 of a missing one.
@Suite("Sandbox-only staff notes", .timeLimit(.minutes(5)))
struct SandboxNoteTests {
    static let second = (email: "staff2@example.com", password: "second-horse")

    func create(_ s: SandboxFixture, _ text: JSON, bearer: String?) async throws -> Answer {
        try await s.post(
            "/api/sandbox/notes", ["text": text], headers: bearer.map { ["Authorization": "Bearer \($0)"] } ?? [:])
    }

    @Test(
        "the author writes a note (201 {note}) and reads it back; the second staff member and another company get 404",
        arguments: SandboxTestMode.allCases)
    func onlyTheAuthorReads(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let author = try await s.staffSignIn()
            let created = try await create(s, "Ring the customer back", bearer: author.token)
            #expect(created.status == 201)
            let note = try #require(created["note"])
            let id = try #require(note["id"]?.stringValue)
            #expect(note["text"] == "Ring the customer back")
            #expect(note["user_id"] == author.answer["user"]?["id"])
            #expect(note["company_id"] == author.answer["company"]?["id"])
            #expect(note["created_at"]?.stringValue != nil)

            let read = try await s.get("/api/sandbox/notes/\(id)", bearer: author.token)
            #expect(read.status == 200)
            #expect(read["note"] == note)
            // Ids are UUIDs; case does not matter.
            #expect(try await s.get("/api/sandbox/notes/\(id.uppercased())", bearer: author.token).status == 200)

            // Same role, same company, another person: the same answer as for a note that does not exist.
            let second = try await s.staffSignIn(email: Self.second.email, password: Self.second.password)
            let foreign = try await s.get("/api/sandbox/notes/\(id)", bearer: second.token)
            let missing = try await s.get("/api/sandbox/notes/\(Secrets.uuid())", bearer: second.token)
            #expect(foreign.status == 404)
            #expect(foreign.json == ["error": "Note not found"])
            #expect(missing.status == foreign.status && missing.json == foreign.json)
            // The second member's own notes are theirs.
            let theirs = try #require(try await create(s, "mine", bearer: second.token)["note"]?["id"]?.stringValue)
            #expect(try await s.get("/api/sandbox/notes/\(theirs)", bearer: second.token).status == 200)
            #expect(try await s.get("/api/sandbox/notes/\(theirs)", bearer: author.token).status == 404)
        }
    }

    @Test(
        "without a valid staff token: 401 with the usual messages; a customer token is not a staff token",
        arguments: SandboxTestMode.allCases)
    func authentication(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let author = try await s.staffSignIn()
            let id = try #require(try await create(s, "x", bearer: author.token)["note"]?["id"]?.stringValue)
            let none = try await s.get("/api/sandbox/notes/\(id)")
            #expect(none.status == 401)
            #expect(none.error == "Authentication required")
            #expect(
                try await s.get("/api/sandbox/notes/\(id)", bearer: tampered(author.token)).error == "Invalid token")
            #expect(try await create(s, "x", bearer: nil).status == 401)
            let customer = try #require(try await s.customerVerify(email: "customer@example.com")["token"]?.stringValue)
            #expect(try await s.get("/api/sandbox/notes/\(id)", bearer: customer).status == 401)
            // After logout the session's token reads nothing.
            #expect(
                try await s.post("/api/auth/logout", headers: ["Authorization": "Bearer \(author.token)"]).status == 200
            )
            #expect(
                try await s.get("/api/sandbox/notes/\(id)", bearer: author.token).error == "Session has been revoked")
        }
    }

    @Test(
        "a note needs non-empty text of at most 10000 characters; other methods answer 405",
        arguments: SandboxTestMode.allCases)
    func validation(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let token = try await s.staffSignIn().token
            for text: JSON in ["", "   ", 42, .null] {
                let answer = try await create(s, text, bearer: token)
                #expect(answer.status == 400)
                #expect(answer.error == "text is required")
            }
            #expect(try await create(s, .string(String(repeating: "a", count: 10_001)), bearer: token).status == 400)
            #expect(try await create(s, .string(String(repeating: "a", count: 10_000)), bearer: token).status == 201)
            let put = try await s.send(
                "PUT", s.base + "/api/sandbox/notes/x", json: [:], headers: ["Authorization": "Bearer \(token)"])
            #expect(put.status == 405)
            #expect(put.headers["allow"] == "GET")
        }
    }

    @Test(
        "quarantined staff get 403 ACCOUNT_PENDING_APPROVAL: the notes are not on the allow-list",
        arguments: SandboxTestMode.allCases)
    func quarantine(mode: SandboxTestMode) async throws {
        try await withSandbox(mode) { s in
            let token = try await s.staffSignIn(email: "pending@example.com", password: "pending-horse").token
            let answer = try await create(s, "x", bearer: token)
            #expect(answer.status == 403)
            #expect(answer["code"] == "ACCOUNT_PENDING_APPROVAL")
        }
    }

    @Test("staff2 is a second staff member of staff's role and company, handed out as staff2_email and staff2_password")
    func secondStaffVariables() async throws {
        let vars = SandboxAccounts.defaults.liveVars(baseURL: "http://x", legacyURL: "http://y")
        #expect(vars["staff2_email"] == Self.second.email)
        #expect(vars["staff2_password"] == Self.second.password)
        let first = try #require(SandboxAccounts.defaults.staff.first { $0.email == vars["staff_email"] })
        let second = try #require(SandboxAccounts.defaults.staff.first { $0.email == vars["staff2_email"] })
        #expect(first.id != second.id)
        #expect(first.role == second.role && first.companyID == second.companyID)
        // Without a peer of the same role there is no variable, rather than one pointing at another kind of account.
        var alone = SandboxAccounts.defaults
        alone.staff.removeAll { $0.email == Self.second.email }
        #expect(alone.liveVars(baseURL: "http://x", legacyURL: "http://y")["staff2_email"] == nil)
    }
}
