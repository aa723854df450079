/// GoTrue's phone handling: drop a leading `+` and spaces, then 2–15 digits not starting with 0 (E.164).
enum PhoneNumber {
    /// The stored form (digits only), or nil when the number is not E.164.
    static func normalise(_ raw: String) -> String? {
        var text = Substring(raw.filter { $0 != " " })
        if text.hasPrefix("+") { text = text.dropFirst() }
        guard (2...15).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }), text.first != "0" else {
            return nil
        }
        return String(text)
    }
}
