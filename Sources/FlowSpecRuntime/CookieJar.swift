import FlowSpecLanguage
import Foundation
import Synchronization

/// The cookies of one run, kept as a browser or an app's HTTP client keeps them (RFC 6265, section 5): what a
/// response sets with `Set-Cookie` is sent back with `Cookie` on later requests of the same run to the same host and
/// path. Servers that keep a login step in a session cookie (Flask's signed session between password and second
/// factor, Django's CSRF and session cookies) then work without the flow copying headers by hand.
///
/// One jar per run context — a scenario (all its steps), an `exec`, a probe's login — shared by its sub-flows,
/// refresh flows and parallel copies, hence the lock. A request whose state sets `Cookie` itself gets nothing added
/// (`Cookie: ""` sends none).
/// Values a backend sets are credentials (a session cookie is a login): each is masked from the moment it arrives.
package final class CookieJar: Sendable {
    struct Cookie: Equatable {
        var name: String
        var value: String
        /// The host it was set by (host-only), or the `Domain` attribute's domain (it and its subdomains).
        var domain: String
        var hostOnly: Bool
        var path: String
        var secure: Bool
    }

    private let cookies = Mutex<[Cookie]>([])

    package init() {}

    /// At most this many cookies are kept: a backend that sets thousands cannot grow every request without bound.
    static let limit = 300
    /// Values shorter than this (`lang=en`, `seen=1`) are preferences, not logins: masking them would hide every
    /// `1` and `en` in the output. A session or CSRF cookie is far longer.
    static let shortestMasked = 8

    /// The cookie names and values a request to `request`'s URL carries, in the order RFC 6265 5.4 gives (longer
    /// paths first, then the order they were set).
    /// A state's own `Cookie` header is sent as it is; an empty one (`Cookie: ""`) means "no cookies at all" and is
    /// not sent — how a flow asks as a token-only client would, which a session cookie would otherwise change (a
    /// signed-in Flask-Security session makes the server ask for a CSRF token).
    package func attach(to request: inout HTTPRequest) {
        if let own = request.header("Cookie") {
            if own.trimmingCharacters(in: .whitespaces).isEmpty {
                request.headers.removeAll { HeaderName.same($0.0, "Cookie") }
            }
            return
        }
        let stored = cookies.withLock { $0 }
        guard !stored.isEmpty else { return }
        let target = Target(request)
        let matching = stored.enumerated()
            .filter { target.matches($0.element) }
            .sorted {
                $0.element.path.count != $1.element.path.count
                    ? $0.element.path.count > $1.element.path.count : $0.offset < $1.offset
            }
        guard !matching.isEmpty else { return }
        request.setHeader("Cookie", matching.map { "\($0.element.name)=\($0.element.value)" }.joined(separator: "; "))
    }

    /// Keeps what `response` sets (replacing a cookie of the same name, domain and path; `Max-Age=0` or an
    /// `Expires` in the past deletes it) and registers each value with `redactor`.
    package func record(_ response: HTTPResponse, for request: HTTPRequest, redactor: Redactor) {
        let lines = response.headers.filter { HeaderName.same($0.0, "Set-Cookie") }.map(\.1)
        guard !lines.isEmpty else { return }
        let target = Target(request)
        for line in lines {
            guard let parsed = Self.parse(line, from: target) else { continue }
            if parsed.cookie.value.count >= Self.shortestMasked { redactor.register(parsed.cookie.value) }
            cookies.withLock { cookies in
                cookies.removeAll {
                    $0.name == parsed.cookie.name && $0.domain == parsed.cookie.domain && $0.path == parsed.cookie.path
                }
                if !parsed.expired {
                    cookies.append(parsed.cookie)
                    if cookies.count > Self.limit { cookies.removeFirst(cookies.count - Self.limit) }
                }
            }
        }
    }

    /// What the jar holds, for tests.
    var names: [String] { cookies.withLock { $0.map(\.name) } }

    /// The host, scheme and path of a request, as cookies are matched against them.
    struct Target {
        var host: String
        var secure: Bool
        var path: String

        init(_ request: HTTPRequest) {
            let components = URLComponents(string: request.url)
            host = (components?.host ?? "").lowercased()
            let scheme = components?.scheme?.lowercased() ?? "http"
            // Loopback counts as secure, as browsers treat it: a local test server sets `Secure` cookies too.
            secure = scheme == "https" || ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host)
            path = request.sentPath.isEmpty ? "/" : request.sentPath
        }

        func matches(_ cookie: Cookie) -> Bool {
            guard !cookie.secure || secure else { return false }
            let domainOK =
                cookie.hostOnly ? host == cookie.domain : (host == cookie.domain || host.hasSuffix("." + cookie.domain))
            return domainOK && Self.pathMatches(path, cookie.path)
        }

        /// RFC 6265 5.1.4: the cookie path is the request path, or a prefix of it ending at a `/`.
        static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
            guard requestPath.hasPrefix(cookiePath) else { return false }
            return requestPath.count == cookiePath.count || cookiePath.hasSuffix("/")
                || requestPath.dropFirst(cookiePath.count).first == "/"
        }

        /// RFC 6265 5.1.4: the default path is the request path up to its last `/` (or `/`).
        var defaultPath: String {
            guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
            return String(path[..<last])
        }
    }

    /// One `Set-Cookie` line (RFC 6265 5.2); nil when it is not a cookie, or names a domain the host may not set.
    static func parse(_ line: String, from target: Target) -> (cookie: Cookie, expired: Bool)? {
        var parts = line.split(separator: ";", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard !parts.isEmpty else { return nil }
        let pair = parts.removeFirst()
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
        var value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            value = String(value.dropFirst().dropLast())
        }
        guard !name.isEmpty else { return nil }
        var cookie = Cookie(
            name: name, value: value, domain: target.host, hostOnly: true, path: target.defaultPath, secure: false)
        var expired = false
        for attribute in parts {
            let (key, argument) =
                attribute.firstIndex(of: "=").map {
                    (
                        attribute[..<$0].trimmingCharacters(in: .whitespaces).lowercased(),
                        attribute[attribute.index(after: $0)...].trimmingCharacters(in: .whitespaces)
                    )
                } ?? (attribute.lowercased(), "")
            switch key {
            case "domain":
                var domain = argument.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                guard !domain.isEmpty else { continue }
                // A host may set a cookie for itself or a parent domain, never for another host.
                guard target.host == domain || target.host.hasSuffix("." + domain) else { return nil }
                cookie.domain = domain
                cookie.hostOnly = false
            case "path":
                cookie.path = argument.hasPrefix("/") ? argument : target.defaultPath
            case "secure":
                cookie.secure = true
            case "max-age":
                if let seconds = Int(argument), seconds <= 0 { expired = true }
            case "expires":
                if let date = Self.httpDate(argument), date < Date() { expired = true }
            default:
                break
            }
        }
        return (cookie, expired)
    }

    /// `Expires` in the forms servers send (RFC 7231's IMF-fixdate, and the older RFC 850 and dashed forms).
    static func httpDate(_ text: String) -> Date? {
        for format in [
            "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE, dd-MMM-yyyy HH:mm:ss zzz",
        ] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
