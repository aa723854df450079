import FlowSpecLanguage
import FlowSpecRuntime
import Foundation

/// One request and what came back, masked once when the scenario ends, so every report (console
/// `--verbose`, JSON, HTML) shows exactly the same thing and none of them can see a secret.
package struct ExchangeRecord: Sendable, Equatable {
    package var flow: String
    package var state: String
    /// The trace id of the flow run that sent it.
    package var run: Int?
    /// Which visit of that run (an index into its `visits`) sent it.
    package var visit: Int?
    package var method: String
    /// Full URL for live runs; the path and query for scripted runs.
    package var url: String
    package var requestHeaders: [Header]
    package var requestBody: String?
    /// nil when no response arrived.
    package var status: Int?
    package var responseHeaders: [Header]
    package var responseBody: String?
    /// Why no response arrived.
    package var failure: String?
    package var durationSeconds: Double

    package struct Header: Sendable, Equatable {
        package var name: String
        package var value: String
        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Bodies longer than this are cut in reports; the run itself saw them whole.
    package static let bodyLimit = 16 * 1024

    package init(_ entry: ExchangeLog.Entry, redactor: Redactor) {
        let request = entry.request
        flow = entry.flow
        state = entry.state
        run = entry.run
        visit = entry.visit
        method = request.method
        url = redactor.redactURL(request.url)
        requestHeaders = request.headers.map {
            let shown = redactor.maskedHeader($0.0, $0.1); return Header(shown.name, shown.value)
        }
        if let json = request.json {
            requestBody = ExchangeRecord.cut(redactor.maskedJSON(json).compactJSON)
        } else if let form = request.form {
            // Each field masked as a JSON field of the same name would be: by key, then by value.
            requestBody = form.map { name, value in
                guard case .string(let shown) = redactor.maskedJSON(.object([name: .string(value)]))[name] else {
                    return name
                }
                return "\(name)=\(shown)"
            }.joined(separator: "&")
        } else if let body = request.body, !body.isEmpty {
            requestBody = ExchangeRecord.cut(redactor.redact(String(decoding: body, as: UTF8.self)))
        }
        status = entry.response?.status
        responseHeaders =
            entry.response?.headers.map {
                let shown = redactor.maskedHeader($0.0, $0.1); return Header(shown.name, shown.value)
            } ?? []
        if let response = entry.response {
            switch response.json {
            case .null: responseBody = nil
            case .string(let text): responseBody = ExchangeRecord.cut(redactor.redact(text))
            default: responseBody = ExchangeRecord.cut(redactor.maskedJSON(response.json).compactJSON)
            }
        }
        failure = entry.failure.map { redactor.redact($0.description) }
        durationSeconds = entry.durationSeconds
    }

    static func cut(_ text: String) -> String {
        text.utf8.count <= bodyLimit
            ? text : String(decoding: text.utf8.prefix(bodyLimit), as: UTF8.self) + "… (cut at \(bodyLimit / 1024) KiB)"
    }
}
