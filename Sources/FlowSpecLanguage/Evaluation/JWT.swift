import Foundation

/// Reads a JWT's claims without checking its signature — flows inspect tokens, they do not trust them — and
/// makes the forged variants an attacker who holds one token can make of it (RFC 7519), which a backend that
/// verifies signatures must refuse. `forge_jwt()` in flows and `flowspec probe` share these, so a reproduction
/// sends exactly what the probe sent.
package enum JWT {
    package static func claims(_ token: String) -> JSONValue? {
        // Split on the bytes: a token is ASCII, and splitting the String by characters walks its graphemes for nothing.
        // Empty parts are skipped, as `split` does.
        let parts = token.utf8.split(separator: UInt8(ascii: "."))
        guard parts.count == 3, let data = base64URLDecode(bytes: parts[1]) else { return nil }
        return JSONValue.parse(data)
    }

    /// The `exp` claim, seconds since 1970, when there is one.
    package static func expiry(of token: String) -> Double? {
        claims(token)?["exp"].numberValue
    }

    /// `token` forged `way`; nil when it is not a JWT (three base64url parts, the first two JSON objects).
    package static func forge(_ token: String, _ way: JWTForgery) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3,
            case .object? = base64URLDecode(parts[0]).flatMap(JSONValue.parse),
            case .object(var claims)? = base64URLDecode(parts[1]).flatMap(JSONValue.parse)
        else { return nil }
        let (header, payload, signature) = (parts[0], parts[1], parts[2])
        switch way {
        case .alteredSignature:
            guard let first = signature.first else { return "\(header).\(payload).AAAA" }
            return "\(header).\(payload).\(first == "A" ? "B" : "A")\(signature.dropFirst())"
        case .alteredClaims:
            if case .number(let exp)? = claims["exp"] {
                claims["exp"] = .number(exp + 86_400 * 365)
            } else {
                claims["flowspec_probe"] = .bool(true)
            }
            return "\(header).\(base64URLEncode(JSONValue.object(claims).data)).\(signature)"
        case .unsigned:
            return "\(base64URLEncode(Data(#"{"alg":"none","typ":"JWT"}"#.utf8))).\(payload)."
        }
    }

    package static func base64URLDecode<S: StringProtocol>(_ text: S) -> Data? {
        base64URLDecode(bytes: text.utf8)
    }

    static func base64URLDecode<Bytes: Collection<UInt8>>(bytes text: Bytes) -> Data? {
        // Byte by byte: `jwt()` runs in guards on every response, and Foundation's text replacing was most of its cost.
        var base64 = text.map {
            $0 == UInt8(ascii: "-") ? UInt8(ascii: "+") : $0 == UInt8(ascii: "_") ? UInt8(ascii: "/") : $0
        }
        while base64.count % 4 != 0 { base64.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(base64))
    }

    package static func base64URLEncode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
