/// A response before it becomes a Hummingbird `Response`.
struct Reply: Sendable, Equatable {
    enum Body: Sendable, Equatable {
        case empty
        case json(JSON)
        case text(String)
    }

    var status: Int
    var headers: [String: String] = [:]
    var body: Body

    static func json(_ status: Int, _ body: JSON, headers: [String: String] = [:]) -> Reply {
        Reply(status: status, headers: headers, body: .json(body))
    }

    static func ok(_ body: JSON) -> Reply {
        .json(200, body)
    }

    static func text(_ status: Int, _ text: String) -> Reply {
        Reply(status: status, body: .text(text))
    }

    static func noContent(headers: [String: String] = [:]) -> Reply {
        Reply(status: 204, headers: headers, body: .empty)
    }

    /// Repair Minder's error shape (docs/systems/repairminder.md): `{"error": "<message>"}`.
    static func error(_ status: Int, _ message: String) -> Reply {
        .json(status, ["error": .string(message)])
    }
}
