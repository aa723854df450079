import FlowSpecLanguage
import FlowSpecScenarios

/// One request and its response (masked by the runner), collapsed to a line: method, URL, status, time.
/// Opened: headers and bodies side by side, JSON indented.
enum HTMLExchange {
    static func render(_ exchange: ExchangeRecord, open: Bool) -> String {
        let statusClass: String
        let statusText: String
        if let status = exchange.status {
            statusClass = "s\(status / 100)xx"
            statusText = String(status)
        } else {
            statusClass = "no-response"
            statusText = "no response"
        }
        var html = "<details class=\"exchange \(statusClass)\"\(open ? " open" : "")><summary>"
        html += "<span class=\"method\">\(Markup.escape(exchange.method))</span> "
        html += "<span class=\"url\">\(Markup.escape(exchange.url))</span> "
        html += "<span class=\"status \(statusClass)\">\(Markup.escape(statusText))</span> "
        html += "<span class=\"time\">\(Markup.escape(HTML.duration(exchange.durationSeconds)))</span>"
        html += "</summary>\n<div class=\"exchange-body\">\n"
        html += "<div class=\"half\"><h4>Request</h4>\n"
        html += headers(exchange.requestHeaders)
        html += body(exchange.requestBody)
        html += "</div>\n<div class=\"half\"><h4>Response</h4>\n"
        if let failure = exchange.failure {
            html += "<pre class=\"failure transport\">\(Markup.escape(failure))</pre>\n"
        }
        if exchange.status != nil {
            html += headers(exchange.responseHeaders)
            html += body(exchange.responseBody)
        }
        html += "</div>\n</div>\n</details>\n"
        return html
    }

    private static func headers(_ headers: [ExchangeRecord.Header]) -> String {
        guard !headers.isEmpty else { return "<p class=\"none\">no headers</p>\n" }
        var html = "<table class=\"headers\">"
        for header in headers {
            html += "<tr><th>\(Markup.escape(header.name))</th><td>\(Markup.escape(header.value))</td></tr>"
        }
        return html + "</table>\n"
    }

    private static func body(_ body: String?) -> String {
        guard let body, !body.isEmpty else { return "<p class=\"none\">no body</p>\n" }
        if let pretty = HTML.prettyJSON(body) { return "<pre class=\"body json\">\(Markup.escape(pretty))</pre>\n" }
        return "<pre class=\"body\">\(Markup.escape(body))</pre>\n"
    }
}
