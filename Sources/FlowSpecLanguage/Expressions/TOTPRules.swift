/// The argument rules of `totp(secret, digits, period, algorithm)` (RFC 6238), in one place: the type checker
/// applies them to literal arguments at load time, the evaluator to every value at run time. The HMAC itself
/// lives in the runtime (FlowSpecRuntime's `TOTP`), which has the crypto library.
package enum TOTPRules {
    /// RFC 4226 asks for at least 6 digits; RFC 6238's reference implementation goes up to 8.
    package static let digits: ClosedRange<Int> = 6...8
    package static let defaultDigits = 6
    /// Seconds per time step (RFC 6238's X); 30 is what authenticator apps use.
    package static let defaultPeriod = 30
    /// The HMAC hash functions RFC 6238 allows, as written in a flow.
    package static let algorithms = ["sha1", "sha256", "sha512"]
    package static let defaultAlgorithm = "sha1"

    package static func digitsProblem(_ value: Double) -> String? {
        guard value == value.rounded(), digits.contains(Int(exactly: value) ?? -1) else {
            return "`totp` digits must be a whole number from \(digits.lowerBound) to \(digits.upperBound)"
        }
        return nil
    }

    package static func periodProblem(_ value: Double) -> String? {
        guard value.isFinite, value == value.rounded(), value >= 1, value <= 86_400 else {
            return "`totp` period must be a whole number of seconds from 1 to 86400 (authenticator apps use 30)"
        }
        return nil
    }

    /// `"SHA256"` and `"sha256"` alike; nil when it is not one of `algorithms`.
    package static func algorithm(_ text: String) -> String? {
        let name = text.lowercased()
        return algorithms.contains(name) ? name : nil
    }

    package static var algorithmProblem: String {
        "`totp` algorithm must be one of " + algorithms.map { "\"\($0)\"" }.joined(separator: ", ")
    }

    /// Decodes a base32 secret (RFC 4648 alphabet `A`–`Z`, `2`–`7`) as authenticator apps show it: any case,
    /// spaces between groups and trailing `=` padding allowed. The failure never quotes the secret.
    package static func base32Decode(_ secret: String) -> Result<[UInt8], Base32Problem> {
        var bits: UInt32 = 0
        var bitCount = 0
        var bytes: [UInt8] = []
        var significant = Array(secret.unicodeScalars.filter { $0 != " " })
        while significant.last == "=" { significant.removeLast() }
        guard !significant.isEmpty else { return .failure(.empty) }
        for (index, scalar) in significant.enumerated() {
            let value: UInt32
            switch scalar {
            case "A"..."Z": value = scalar.value - 65
            case "a"..."z": value = scalar.value - 97
            case "2"..."7": value = scalar.value - 50 + 26
            default: return .failure(.notBase32(position: index + 1))
            }
            bits = (bits << 5) | value
            bitCount += 5
            if bitCount >= 8 {
                bitCount -= 8
                bytes.append(UInt8((bits >> UInt32(bitCount)) & 0xFF))
            }
        }
        guard !bytes.isEmpty else { return .failure(.tooShort) }
        return .success(bytes)
    }

    package enum Base32Problem: Error, Sendable, Equatable {
        case empty
        case tooShort
        /// 1-based position among the characters that are not spaces.
        case notBase32(position: Int)

        package var message: String {
            switch self {
            case .empty: "`totp` needs a base32 secret, but it is empty"
            case .tooShort:
                "`totp` needs a base32 secret of at least 2 characters (authenticator secrets are usually 16 or 32)"
            case .notBase32(let position):
                "`totp` needs a base32 secret (letters A-Z and digits 2-7, as authenticator apps show it), but character \(position) of the secret is not one of them"
            }
        }
    }
}
