/// A request named the way a session's `refresh.not_for` names it: an HTTP method and the request state's `path:`
/// exactly as written in the flow (`POST /auth/logout`, `DELETE /users/${user_id}/sessions`) — the template text,
/// not the rendered path, so one entry covers every value the template takes and never depends on the base URL.
package struct RequestName: Sendable, Hashable, CustomStringConvertible {
    package var method: String
    package var path: String
    package var location: SourceLocation

    package init(method: String, path: String, location: SourceLocation) {
        self.method = method
        self.path = path
        self.location = location
    }

    package var description: String { "\(method) \(path)" }

    /// `METHOD /path`: the method (any case) and a path starting with `/`, one or more spaces between; nil otherwise.
    package static func parse(_ text: String, at location: SourceLocation) -> RequestName? {
        // The method is the first word; the rest is the path as written (a template's `${ … }` may hold spaces).
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let gap = text.firstIndex(where: blank) else { return nil }
        let method = text[..<gap].uppercased()
        var rest = text[gap...].drop(while: blank)
        while let last = rest.last, blank(last) { rest = rest.dropLast() }
        guard methods.contains(method), rest.hasPrefix("/") else { return nil }
        return RequestName(method: method, path: String(rest), location: location)
    }

    static let methods: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    /// Whether `request` is the request this names: same method, and a `path:` written exactly so.
    package func names(_ request: RequestState) -> Bool {
        request.method == method && request.path?.source == path
    }

    package static func == (a: RequestName, b: RequestName) -> Bool { a.method == b.method && a.path == b.path }
    package func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(path)
    }
}
