import Foundation

/// Where a request goes, checked once, where its URL is built: a base URL or a `url:` that NIO could not connect to
/// (a port past 65535 trapped inside NIO; the plain client wrapped it round to another port), or that would send
/// requests somewhere the flow did not say (a query or fragment in a base URL), is refused before anything is sent.
/// A value substituted into a path is path data: it can never change the host or add a query.
package enum RequestURL {
    /// Why `text` cannot be a base URL (`defaults.base_url`, `--base-url`, a URL variable), or nil when it can.
    package static func baseURLProblem(_ text: String) -> String? {
        if let problem = absoluteURLProblem(text) { return problem }
        // A query or fragment is found by its character: parsing the URL a second time per request adds nothing.
        if text.contains("?") {
            return "a base URL cannot have a query (`?…`): requests append their own path and query to it"
        }
        if text.contains("#") {
            return
                "a base URL cannot have a fragment (`#…`): everything after `#` is never sent, so the path would be lost"
        }
        return nil
    }

    /// Why `text` cannot be an absolute request URL (a `url:` field, a redirect's target), or nil when it can.
    package static func absoluteURLProblem(_ text: String) -> String? {
        guard let schemeEnd = text.range(of: "://") else {
            return "expected an absolute http(s) URL such as https://staging.example.com"
        }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            return "expected an http or https URL, got the scheme `\(scheme.prefix(20))`"
        }
        let rest = text[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        // Credentials end at the last `@` of the authority; the host and port follow.
        let hostAndPort = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        var port: Substring?
        if hostAndPort.hasPrefix("[") {
            guard let close = hostAndPort.firstIndex(of: "]") else { return "the IPv6 host has no closing `]`" }
            let after = hostAndPort[hostAndPort.index(after: close)...]
            if after.hasPrefix(":") {
                port = after.dropFirst()
            } else if !after.isEmpty {
                return "unexpected text after the IPv6 host"
            }
            if hostAndPort.index(after: hostAndPort.startIndex) == close { return "the URL has no host" }
        } else if let colon = hostAndPort.lastIndex(of: ":") {
            port = hostAndPort[hostAndPort.index(after: colon)...]
            if colon == hostAndPort.startIndex { return "the URL has no host" }
        } else if hostAndPort.isEmpty {
            return "the URL has no host"
        }
        if let port {
            guard !port.isEmpty else {
                return "the port after `:` is empty: write a port from 1 to 65535, or leave out the `:`"
            }
            guard port.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                return "the port must be a number from 1 to 65535"
            }
            guard port.count <= 5, let number = Int(port), (1...65535).contains(number) else {
                return "the port \(port.prefix(12))\(port.count > 12 ? "…" : "") is outside 1–65535"
            }
        }
        guard URLComponents(string: text)?.host != nil else {
            return "expected an absolute http(s) URL such as https://staging.example.com"
        }
        return nil
    }

    /// The password of a URL's credentials (`http://user:password@host`), or the user alone: masked wherever the
    /// URL is shown.
    package static func credentials(_ text: String) -> [String] {
        guard let components = URLComponents(string: text) else { return [] }
        return [components.password, components.user].compactMap { $0 }.filter { !$0.isEmpty }
    }

    /// `url` with the credentials of its authority (`user:password@`) replaced by the mask: whatever their length,
    /// they are shown nowhere.
    package static func maskingCredentials(_ url: String, mask: String = "••••") -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<schemeEnd.upperBound]) + mask + String(url[at...])
    }

    /// A value substituted into a path template, encoded as path data: everything but unreserved characters,
    /// sub-delimiters, `:`, `@` and `/` is percent-encoded, so `?` and `#` stay in the path and `%` is a percent sign.
    /// `/` stays so that a whole path may come from a variable (`path: "${vars.me_path}"`).
    package static func encodePathValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: pathData) ?? text
    }

    /// The path of a base URL, without the `/` it may end with, as `HTTPRequest.url` joins it to a request's path:
    /// `/api` for `https://host/api/`, empty for `https://host` or no base URL. As written (percent-encoding kept),
    /// without a query or fragment.
    package static func pathPrefix(ofBase base: String?) -> String {
        guard var base, let schemeEnd = base.range(of: "://") else { return "" }
        if base.hasSuffix("/") { base.removeLast() }
        let rest = base[schemeEnd.upperBound...]
        guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }), rest[slash] == "/" else {
            return ""
        }
        let end = rest[slash...].firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
        return String(rest[slash..<end])
    }

    /// A rendered path always starts with `/`: base URL + path can then never read as credentials or a new host
    /// (`http://api.test` + `@evil.test/x`).
    package static func rooted(_ path: String) -> String {
        path.hasPrefix("/") ? path : "/" + path
    }

    static let pathData: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        set.insert(charactersIn: "-._~!$&'()*+,;=:@/")
        return set
    }()
}
