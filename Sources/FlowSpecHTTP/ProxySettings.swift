import Foundation

/// `HTTPS_PROXY` / `HTTP_PROXY` / `NO_PROXY`, read the way curl reads them.
struct ProxySettings: Sendable, Equatable {
    struct Server: Sendable, Hashable {
        var host: String
        var port: Int
    }

    var http: Server?
    var https: Server?
    /// Host suffixes that bypass the proxy; `*` bypasses it for every host.
    var noProxy: [String]

    init(environment: [String: String]) {
        func value(_ name: String) -> String? {
            let v = environment[name.lowercased()] ?? environment[name]
            return (v?.isEmpty ?? true) ? nil : v
        }
        http = value("HTTP_PROXY").flatMap(Self.parse)
        https = value("HTTPS_PROXY").flatMap(Self.parse)
        noProxy = (value("NO_PROXY") ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }

    /// `http://host:port`, `host:port` or `host` (port 80 for http, 443 for https proxies).
    static func parse(_ text: String) -> Server? {
        var rest = Substring(text)
        var defaultPort = 80
        if let range = rest.range(of: "://") {
            if rest[..<range.lowerBound].lowercased() == "https" { defaultPort = 443 }
            rest = rest[range.upperBound...]
        }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        guard !rest.isEmpty else { return nil }
        if let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]) {
            return Server(host: String(rest[..<colon]), port: port)
        }
        return Server(host: String(rest), port: defaultPort)
    }

    /// The proxy a request to `host` over `scheme` goes through, if any. Loopback never does: the embedded
    /// sandbox must keep working on CI machines that set a proxy for the outside world.
    func server(scheme: String, host: String) -> Server? {
        let host = host.lowercased()
        if Self.isLoopback(host) { return nil }
        for entry in noProxy {
            if entry == "*" { return nil }
            let suffix = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            let bare = suffix.split(separator: ":").first.map(String.init) ?? suffix
            if host == bare || host.hasSuffix("." + bare) { return nil }
        }
        return scheme == "https" ? https : http
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]"
    }
}
