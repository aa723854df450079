import FlowSpecRuntime

/// The "last exchange" a failure report shows: the request line and JSON body, the status and at most 300
/// characters of the response body, everything masked.
enum ExchangeExcerpt {
    static let bodyLimit = 300

    static func describe(_ entry: ExchangeLog.Entry, _ redactor: Redactor) -> String {
        var text = "\(entry.request.method) \(redactor.redactURL(entry.request.pathWithQuery))"
        if let json = entry.request.json { text += " " + redactor.maskedJSON(json).compactJSON }
        if let response = entry.response {
            text += "\n      → \(response.status)"
            switch response.json {
            case .null: break
            // Masked first, then cut: cutting first could leave the start of a secret that straddles the limit.
            // One line: the body's own line breaks and control characters escaped (`TerminalText`).
            case .string(let s): text += " " + TerminalText.escaped(String(redactor.redact(s).prefix(bodyLimit)))
            default:
                let body = redactor.maskedJSON(response.json).compactJSON
                text += " " + (body.count > bodyLimit ? String(body.prefix(bodyLimit)) + "…" : body)
            }
        } else if let failure = entry.failure {
            text += "\n      → no response: \(TerminalText.escaped(redactor.redact(failure.cause)))"
        }
        return text
    }
}
