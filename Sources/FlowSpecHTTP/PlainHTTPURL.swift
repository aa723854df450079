/// What `PlainHTTPClient` needs from a plain `http://host[:port]/path?query` URL — the host, the port and the request
/// target — read from the text in one pass.
///
/// Why: Foundation's `URL(string:)` and the `host`, `port` and `path` it then computes were 3.5% of a live run. This
/// accepts only the everyday shape, where its reading is Foundation's (`PlainHTTPURLTests` compares the two): the
/// scheme `http` in lower case, a host of lower-case letters, digits, dots and dashes, an optional port without
/// leading zeros, and a path and query of characters sent as they are, without a fragment. Anything else (user info,
/// IPv6, upper case, percent-encoding, `#`) is parsed by Foundation as before.
struct PlainHTTPURL: Equatable {
    var host: String
    var port: Int?
    /// The path and query as they go in the request line.
    var target: String

    init?(_ text: String) {
        var bytes = text.utf8[...]
        guard bytes.starts(with: "http://".utf8) else { return nil }
        bytes = bytes.dropFirst(7)
        let authorityEnd =
            bytes.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? bytes.endIndex
        let authority = bytes[..<authorityEnd]
        let rest = bytes[authorityEnd...]
        let colon = authority.firstIndex(of: UInt8(ascii: ":"))
        let hostBytes = authority[..<(colon ?? authority.endIndex)]
        guard !hostBytes.isEmpty, hostBytes.allSatisfy(Self.isHostByte) else { return nil }
        if let colon {
            let digits = authority[authority.index(after: colon)...]
            guard (1...5).contains(digits.count), digits.first != UInt8(ascii: "0"),
                digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
            else { return nil }
            let value = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            guard value <= 65_535 else { return nil }
            port = value
        } else {
            port = nil
        }
        guard rest.allSatisfy(PlainHTTPClient.isSentAsIs), !rest.contains(UInt8(ascii: "#")) else { return nil }
        host = String(Substring(hostBytes))
        let path = String(Substring(rest))
        target = path.first == "/" ? path : "/" + path
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }
}
