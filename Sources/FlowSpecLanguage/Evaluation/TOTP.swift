import Crypto

/// Time-based one-time passwords (RFC 6238): HOTP (RFC 4226) over the time step `floor(time / period)`, what
/// authenticator apps show. Used by the flow function `totp(...)`; the argument rules are `TOTPRules`.
package enum TOTP {
    package enum Algorithm: String, Sendable, CaseIterable {
        case sha1, sha256, sha512
    }

    /// A base32 `secret`'s code at Unix time `time`.
    package static func code(
        secret: String, at time: Double, digits: Int = TOTPRules.defaultDigits,
        period: Int = TOTPRules.defaultPeriod, algorithm: Algorithm = .sha1
    ) throws(TOTPRules.Base32Problem) -> String {
        let key = try TOTPRules.base32Decode(secret).get()
        return code(key: key, at: time, digits: digits, period: period, algorithm: algorithm)
    }

    package static func code(key: [UInt8], at time: Double, digits: Int, period: Int, algorithm: Algorithm) -> String {
        hotp(key: key, counter: step(at: time, period: period), digits: digits, algorithm: algorithm)
    }

    /// RFC 6238's T with T0 = 0; times before 1970 (never a run's clock) count as step 0.
    package static func step(at time: Double, period: Int) -> UInt64 {
        guard time.isFinite, time > 0, period > 0 else { return 0 }
        return UInt64((time / Double(period)).rounded(.down))
    }

    /// RFC 4226 section 5.3: HMAC of the big-endian counter, dynamic truncation, modulo 10^digits, zero-padded.
    package static func hotp(key: [UInt8], counter: UInt64, digits: Int, algorithm: Algorithm) -> String {
        let message = (0..<8).map { UInt8(truncatingIfNeeded: counter >> (56 - 8 * UInt64($0))) }
        let symmetricKey = SymmetricKey(data: key)
        let mac: [UInt8]
        switch algorithm {
        case .sha1: mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: symmetricKey))
        case .sha256: mac = Array(HMAC<SHA256>.authenticationCode(for: message, using: symmetricKey))
        case .sha512: mac = Array(HMAC<SHA512>.authenticationCode(for: message, using: symmetricKey))
        }
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let binary =
            UInt64(mac[offset] & 0x7F) << 24 | UInt64(mac[offset + 1]) << 16
            | UInt64(mac[offset + 2]) << 8 | UInt64(mac[offset + 3])
        var modulus: UInt64 = 1
        for _ in 0..<max(1, digits) { modulus *= 10 }
        let text = String(binary % modulus)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
