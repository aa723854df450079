import Crypto
import Foundation
import Synchronization

/// HS256 JSON Web Tokens, signed with swift-crypto's HMAC<SHA256>. Each backend gets its own random key
/// per sandbox instance, so a token minted by one backend (or by an earlier sandbox) never verifies on another.
struct HS256Signer: Sendable {
    /// Raw bytes rather than a `SymmetricKey`, which is not `Sendable`; the key is rebuilt per use (cheap).
    private let keyBytes: [UInt8]
    /// The signatures this signer issued, kept only for the `accepts-altered-claims` break (nil otherwise, so a
    /// long-running healthy sandbox remembers nothing).
    private let issued: IssuedSignatures?

    init(remembersIssued: Bool = false) {
        self.keyBytes = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
        self.issued = remembersIssued ? IssuedSignatures() : nil
    }

    private var key: SymmetricKey { SymmetricKey(data: keyBytes) }

    func sign(_ claims: JSON) -> String {
        let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let payload = Base64URL.encode(Array(claims.serialized.utf8))
        let signingInput = header + "." + payload
        let mac = HMAC<SHA256>.authenticationCode(for: Array(signingInput.utf8), using: key)
        let signature = Base64URL.encode(Array(mac))
        issued?.insert(signature)
        return signingInput + "." + signature
    }

    /// The claims of a well-formed token whose signature verifies (unless `checkSignature` is off, for the
    /// `accepts-tampered-token` break) and whose `exp` is in the future (unless `checkExpiry` is off).
    /// `acceptsUnsigned` (break `accepts-unsigned-token`) lets an `alg: none` token with an empty signature through;
    /// `trustsIssuedSignatures` (break `accepts-altered-claims`) takes a signature this signer issued as proof,
    /// whatever header and payload it now comes with.
    func verify(
        _ token: String, now: Double, checkSignature: Bool = true, checkExpiry: Bool = true,
        acceptsUnsigned: Bool = false, trustsIssuedSignatures: Bool = false
    ) -> Result<JSON, JWTFailure> {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerBytes = Base64URL.decode(String(parts[0])),
            let header = JSON.parse(headerBytes),
            let payloadBytes = Base64URL.decode(String(parts[1])),
            let claims = JSON.parse(payloadBytes), claims.isObject,
            let signature = Base64URL.decode(String(parts[2]))
        else { return .failure(.malformed) }
        // Only HS256: accepting "none" or another algorithm is the classic JWT hole (RFC 8725 section 2.1) —
        // which the `accepts-unsigned-token` break reopens, the way libraries that trust the header do: `none`
        // in any case, and nothing to check because the signature is empty. A token with a signature must still
        // say HS256 and verify.
        let unsigned = acceptsUnsigned && header["alg"]?.stringValue?.lowercased() == "none" && signature.isEmpty
        guard unsigned || header["alg"]?.stringValue == "HS256" else { return .failure(.malformed) }
        // The `accepts-altered-claims` break: a lookup of the signature among those issued (as a token store
        // keyed by signature would do) instead of recomputing the MAC over the header and payload presented.
        // A corrupted signature is unknown and still checked, so this is not `accepts-tampered-token`.
        let known = trustsIssuedSignatures && issued?.contains(String(parts[2])) == true
        if checkSignature, !unsigned, !known {
            let signingInput = Array("\(parts[0]).\(parts[1])".utf8)
            guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: signingInput, using: key) else {
                return .failure(.badSignature)
            }
        }
        if checkExpiry {
            guard let exp = claims["exp"]?.intValue else { return .failure(.malformed) }
            if now >= Double(exp) { return .failure(.expired) }
        }
        return .success(claims)
    }
}

/// Signatures a signer issued; a class around a `Mutex` because the signer is a copied `Sendable` struct.
final class IssuedSignatures: Sendable {
    private let signatures = Mutex<Set<String>>([])

    func insert(_ signature: String) {
        signatures.withLock { _ = $0.insert(signature) }
    }

    func contains(_ signature: String) -> Bool {
        signatures.withLock { $0.contains(signature) }
    }
}

enum JWTFailure: Error, Equatable {
    case malformed
    case badSignature
    case expired
}

enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: String) -> [UInt8]? {
        guard text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }), text.allSatisfy(\.isASCII)
        else {
            return nil
        }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map(Array.init)
    }
}
