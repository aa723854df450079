import Crypto
import Foundation

/// Random values: codes, opaque refresh tokens, ids. `SystemRandomNumberGenerator` is the OS CSPRNG,
/// which matters even in a sandbox because tests assert that codes cannot be guessed from each other.
enum Secrets {
    /// A 6-digit code with leading zeros, as the documented emails and SMS carry.
    static func sixDigitCode() -> String {
        let value = Int.random(in: 0..<1_000_000)
        let digits = String(value)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// An opaque token of `byteCount` random bytes, base64url-encoded.
    static func opaqueToken(byteCount: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(bytes)
    }

    static func uuid() -> String {
        UUID().uuidString.lowercased()
    }

    /// A UUID-shaped id derived from `seed`, so accounts without an explicit id keep the same id across
    /// sandbox runs (QA notes and scripts can refer to it).
    static func stableID(_ seed: String) -> String {
        let digest = Array(SHA256.hash(data: Array(seed.utf8)))
        var bytes = Array(digest.prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x40 // version 4 layout
        bytes[8] = (bytes[8] & 0x3F) | 0x80 // RFC 4122 variant
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let chars = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(chars[$0]) }.joined(separator: "-")
    }
}
