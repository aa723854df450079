import Foundation

/// The sandbox's mail and SMS catcher: every code the backends "send" lands here, and the test-only
/// `/__sandbox/outbox` endpoints read it back (that is how a live run types the code it was sent).
struct Outbox: Sendable {
    enum Channel: String, Sendable {
        case email
        case sms
    }

    struct Message: Sendable {
        let to: String
        let channel: Channel
        let code: String
        let subject: String
        let sentAt: Double

        var json: JSON {
            [
                "to": .string(to), "channel": .string(channel.rawValue), "code": .string(code),
                "subject": .string(subject), "sentAt": .string(Outbox.timestamp(sentAt)),
            ]
        }
    }

    private(set) var messages: [Message] = []

    mutating func send(to address: String, channel: Channel, code: String, subject: String, now: Double) {
        messages.append(Message(to: address, channel: channel, code: code, subject: subject, sentAt: now))
    }

    func messages(to address: String?) -> [Message] {
        guard let address else { return messages }
        let wanted = Outbox.normalise(address)
        return messages.filter { Outbox.normalise($0.to) == wanted }
    }

    mutating func clear() {
        messages.removeAll()
    }

    /// Emails compare case-insensitively; phones with or without `+` and spaces (a `+` in a query string
    /// that was not percent-encoded arrives as a space).
    static func normalise(_ address: String) -> String {
        let trimmed = address.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed.contains("@") { return trimmed }
        return trimmed.filter { $0 != "+" && $0 != " " && $0 != "-" && $0 != "(" && $0 != ")" }
    }

    static func timestamp(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}
