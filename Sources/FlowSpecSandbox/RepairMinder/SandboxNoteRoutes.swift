import Foundation

/// Staff notes: a **sandbox-only** resource, not part of the Repair Minder API (docs/systems/repairminder.md names no
/// object a staff member owns). It exists so that `flowspec probe` can try broken object-level authorization (OWASP
/// API Security Top 10 2023, API1) against the sandbox: a note belongs to the staff member who wrote it, and only
/// that member reads it; anyone else gets the same 404 as for a note that does not exist, so ids reveal nothing.
struct SandboxNoteRoutes: Sendable {
    struct Note: Sendable {
        let id: String
        let ownerID: String
        let companyID: String
        let text: String
        let createdAt: Double
    }

    /// Longer texts are refused: a note is a test object, and the sandbox keeps every note in memory until it stops.
    static let maxTextLength = 10_000

    let world: World
    var sessions: StaffSessions { StaffSessions(world: world) }

    var routes: [Route] {
        [
            Route("POST", "/api/sandbox/notes") { request, _ in try create(request) },
            Route("GET", "/api/sandbox/notes/:id") { request, parameters in
                try read(request, id: parameters["id"] ?? "")
            },
        ]
    }

    /// `POST /api/sandbox/notes` `{text}` → 201 `{note}`, owned by the caller.
    func create(_ request: SandboxRequest) throws -> Reply {
        try world.withState { state throws(Rejection) in
            // Authentication first, as for every staff endpoint: without a token the body is never looked at.
            let session = try sessions.authenticate(request, state: state.staff)
            let body = try request.repairMinderBody()
            guard let text = body["text"]?.stringValue, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            else {
                return .error(400, "text is required")
            }
            guard text.count <= Self.maxTextLength else {
                return .error(400, "text must be at most \(Self.maxTextLength) characters")
            }
            let note = Note(
                id: Secrets.uuid(), ownerID: session.user.id, companyID: session.company.id, text: text,
                createdAt: request.now)
            state.staff.notes[note.id] = note
            return .json(201, ["note": json(note)])
        }
    }

    /// `GET /api/sandbox/notes/{id}` → 200 `{note}` for its author; 404 `Note not found` for anyone else (healthy),
    /// or for any staff member under the `notes-any-owner` break, which never compares the owner.
    func read(_ request: SandboxRequest, id: String) throws -> Reply {
        try world.withState { state throws(Rejection) in
            let session = try sessions.authenticate(request, state: state.staff)
            guard let note = state.staff.notes[id.lowercased()],
                note.ownerID == session.user.id || world.has(.notesAnyOwner)
            else { return .error(404, RepairMinderMessages.noteNotFound) }
            return .ok(["note": json(note)])
        }
    }

    private func json(_ note: Note) -> JSON {
        [
            "id": .string(note.id), "text": .string(note.text), "user_id": .string(note.ownerID),
            "company_id": .string(note.companyID), "created_at": .string(Outbox.timestamp(note.createdAt)),
        ]
    }
}
