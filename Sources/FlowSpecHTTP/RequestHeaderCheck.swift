import FlowSpecRuntime

/// Refuses a request whose header names or values cannot go on the wire, before either client sees it.
///
/// Why here, in one place: AsyncHTTPClient refused such a request with `invalidHeaderFieldValues([…])`, which printed
/// the values — secrets among them, such as a token ending in a newline — and read as "no response from the backend"
/// (exit 3) although nothing was sent. The value came from the run (a YAML `key: |` block keeps its final newline, a
/// captured token may hold one), so it is the run's mistake: `.notSent`, which ends the flow in an error. The message
/// names the header and what is wrong with its value, never the value.
enum RequestHeaderCheck {
    static func problem(in headers: [(String, String)], userAgent: String) -> String? {
        for (name, value) in headers {
            guard HeaderSyntax.isToken(name) else {
                return
                    "the header name \(shown(name)) is not a valid HTTP header name (letters, digits and !#$%&'*+-.^_`|~ only)"
            }
            if let what = flaw(value) { return "the value of the header `\(name)` \(what)" + hint(value) }
        }
        if let what = flaw(userAgent) { return "the User-Agent \(what)" }
        return nil
    }

    /// What makes `value` unfit for a header (RFC 9110 §5.5: no control characters but tab), or nil.
    private static func flaw(_ value: String) -> String? {
        guard let bad = value.utf8.first(where: { !HeaderSyntax.isFieldValueByte($0) }) else { return nil }
        let name: String
        switch bad {
        case 0x0A: name = "a line feed (LF)"
        case 0x0D: name = "a carriage return (CR)"
        case 0x00: name = "a NUL byte"
        default: name = "the control character 0x" + String(bad, radix: 16, uppercase: true)
        }
        return "holds \(name), which a header value cannot carry"
    }

    private static func hint(_ value: String) -> String {
        let trailing = value.utf8.last == 0x0A || value.utf8.last == 0x0D
        return trailing
            ? " — it ends in a line break: a YAML `key: |` block keeps its final newline (write `key: |-`), or trim the value where it is captured"
            : " — remove the line breaks and control characters from the value that fills it"
    }

    /// A name as text a terminal shows safely: control characters as escapes, cut after 64 characters.
    private static func shown(_ name: String) -> String {
        var text = ""
        for scalar in name.unicodeScalars.prefix(64) {
            text += scalar.value < 0x20 || scalar.value == 0x7F ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return "`" + text + (name.unicodeScalars.count > 64 ? "…" : "") + "`"
    }
}
