import Foundation

/// Forged variants of a JWT access token (RFC 7519): what an attacker who holds one token can make of it.
/// Each must be refused by a backend that verifies signatures.
struct JWTForgery {
    let header: String
    let payload: String
    let signature: String

    /// nil when `token` is not a JWT (three base64url parts, the first two JSON objects).
    init?(_ token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let h = Base64URL.decode(parts[0]), let p = Base64URL.decode(parts[1]),
              (try? JSONSerialization.jsonObject(with: h)) is [String: Any],
              (try? JSONSerialization.jsonObject(with: p)) is [String: Any] else { return nil }
        header = parts[0]
        payload = parts[1]
        signature = parts[2]
    }

    /// The same header and claims with one signature character changed: a signature that cannot verify.
    var alteredSignature: String {
        guard let first = signature.first else { return "\(header).\(payload).AAAA" }
        let swapped: Character = first == "A" ? "B" : "A"
        return "\(header).\(payload).\(swapped)\(signature.dropFirst())"
    }

    /// The claims changed (a later `exp`, or an extra claim) under the original signature.
    var alteredPayload: String {
        guard let data = Base64URL.decode(payload), var claims = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            return alteredSignature
        }
        if let exp = claims["exp"] as? Double { claims["exp"] = exp + 86_400 * 365 } else { claims["flowspec_probe"] = true }
        let changed = (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])) ?? data
        return "\(header).\(Base64URL.encode(changed)).\(signature)"
    }

    /// `alg: none` with the same claims and no signature: the classic bypass of libraries that trust the header.
    var unsigned: String {
        "\(Base64URL.encode(Data(#"{"alg":"none","typ":"JWT"}"#.utf8))).\(payload)."
    }

    /// The `exp` claim, seconds since 1970, when there is one.
    static func expiry(of token: String) -> Double? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Base64URL.decode(String(parts[1])),
              let claims = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return nil }
        return (claims["exp"] as? NSNumber)?.doubleValue
    }
}

enum Base64URL {
    static func decode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }

    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
