import Crypto

/// The sandbox's side of app-based 2FA: RFC 6238 TOTP as authenticator apps compute it (HMAC-SHA-1, 6 digits,
/// 30-second steps from the Unix epoch). Written independently of FlowSpec's `totp()` function on purpose: the
/// sandbox is the reference the client is checked against, so a mistake shared by both would go unnoticed.
enum SandboxTOTP {
    static let period: Double = 30
    static let digits = 6
    /// Steps accepted either side of the current one: RFC 6238 section 5.2's allowance for clock drift and
    /// network delay (a code typed just before its 30 s ran out still works).
    static let window: Int64 = 1

    /// RFC 4648 base32 (any case; spaces and `=` padding ignored); nil when it is not base32 or is empty.
    static func key(base32 secret: String) -> [UInt8]? {
        var buffer: UInt32 = 0
        var bits = 0
        var key: [UInt8] = []
        for character in secret.uppercased() where character != " " && character != "=" {
            guard let ascii = character.asciiValue else { return nil }
            let value: UInt8
            switch ascii {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = ascii - UInt8(ascii: "A")
            case UInt8(ascii: "2")...UInt8(ascii: "7"): value = ascii - UInt8(ascii: "2") + 26
            default: return nil
            }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                key.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return key.isEmpty ? nil : key
    }

    static func step(at now: Double) -> Int64 {
        Int64((now / period).rounded(.down))
    }

    /// RFC 4226 HOTP of `step` with RFC 6238's defaults.
    static func code(key: [UInt8], step: Int64) -> String {
        var counter = UInt64(max(0, step)).bigEndian
        let message = withUnsafeBytes(of: &counter) { Array($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: key)))
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let truncated =
            (UInt32(mac[offset]) & 0x7F) << 24 | UInt32(mac[offset + 1]) << 16
            | UInt32(mac[offset + 2]) << 8 | UInt32(mac[offset + 3])
        let number = String(truncated % 1_000_000)
        return String(repeating: "0", count: digits - number.count) + number
    }

    /// The newest step within the window around `now` whose code is `code` and that is later than `after`
    /// (the last step this account signed in with: RFC 6238 section 5.2, a code is not accepted twice).
    static func acceptedStep(_ code: String, key: [UInt8], now: Double, after: Int64?) -> Int64? {
        let current = step(at: now)
        for candidate in stride(from: current + window, through: current - window, by: -1) {
            if let after, candidate <= after { continue }
            if ConstantTime.equals(Self.code(key: key, step: candidate), code) { return candidate }
        }
        return nil
    }
}
