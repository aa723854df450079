import Foundation

@testable import FlowSpecRuntime

/// Objects of one user, for the cross-user probe: a note is read by its owner only; anyone else gets 404 (not 403,
/// which would tell them it exists).
extension ToyAuthBackend {
    func createNote(_ request: HTTPRequest) -> HTTPResponse {
        guard let who = bearer(request) else { return reply(401, ["error": "unauthorized"]) }
        let id = "note-\(notes.count + 1)"
        notes[id] = who.email
        return reply(201, ["id": id])
    }

    func readNote(_ request: HTTPRequest, id: String) -> HTTPResponse {
        guard let who = bearer(request) else { return reply(401, ["error": "unauthorized"]) }
        guard !knobs.ownerCannotRead, let owner = notes[id] else { return reply(404, ["error": "no such note"]) }
        guard owner == who.email || knobs.anyOwner else {
            return reply(knobs.othersNoteStatus, ["error": "not your note"])
        }
        return reply(200, ["id": id, "owner": owner])
    }
}
