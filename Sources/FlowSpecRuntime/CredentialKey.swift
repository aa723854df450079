import FlowSpecLanguage

/// Whether a JSON key, variable or store key names a credential, read word by word: `access_token`,
/// `refreshToken`, `staff_password`, `supabase_anon_key`, `code_verifier` do; `token_type`, `expires_in`,
/// `otp_length`, `status_code`, `postcode` do not. A key that merely contains a credential's letters, or that
/// describes one (its type, lifetime or length), holds nothing secret, and masking it hides what a report is for.
enum CredentialKey {
    /// Words that name a secret.
    private static let credentialWords: Set<[UInt8]> = Set(
        [
            "token", "tokens", "password", "passwd", "pwd", "secret", "code", "otp", "jwt", "apikey", "key", "pin",
            "passcode", "credential", "credentials", "cookie", "verifier", "nonce",
        ].map { Array($0.utf8) })
    /// A last word that makes the key describe the credential rather than hold it.
    private static let describingWords: Set<[UInt8]> = Set(
        [
            "type", "types", "expires", "expiry", "expiration", "exp", "in", "at", "ttl", "length", "len", "count",
            "digits", "sent", "method", "channel", "hint", "status", "required", "enabled", "valid", "used", "version",
            "format", "kind", "url", "uri", "endpoint", "path", "id", "lifetime", "age", "seconds", "remaining",
            "attempts", "retries", "interval",
            // Who or what a credential is for: `code_email` is the address codes go to, `otp_phone` the number.
            "email", "mail", "phone", "address", "username", "name", "user", "company",
        ].map { Array($0.utf8) })
    /// A word before `code` that makes it a classification, not a one-time code.
    private static let codeQualifiers: Set<[UInt8]> = Set(
        [
            "status", "error", "country", "currency", "postal", "post", "zip", "area", "language", "lang", "region",
            "http", "response", "reason", "dial", "calling",
        ].map { Array($0.utf8) })
    private static let code = Array("code".utf8)

    /// Keys that are a credential on their own though their word is not (`{"access": …, "refresh": …}` is the
    /// token pair of djangorestframework-simplejwt); inside longer keys (`access_level`) they are ordinary.
    private static let credentialKeys: Set<[UInt8]> = Set(
        ["access", "refresh", "bearer", "authorization"].map { Array($0.utf8) })

    static func isCredential(_ key: String) -> Bool {
        // Called for every key of every body shown: most keys (`id`, `name`, `email`) hold none of the letters of a
        // credential word, which a byte scan without allocation tells before any splitting into words.
        guard mayNameCredential(key) else { return false }
        let words = words(of: key)
        if words.count == 1, credentialKeys.contains(words[0]) { return true }
        guard let last = words.last, !describingWords.contains(last) else { return false }
        for (index, word) in words.enumerated() where credentialWords.contains(word) {
            if word == code, index > 0, codeQualifiers.contains(words[index - 1]) { continue }
            return true
        }
        return false
    }

    /// Whether a name a user chose (a run variable, a flow variable set by `set:`) names a credential **by its last
    /// word**: `admin_password`, `totp_secret`, `email_code`, `supabase_anon_key`, `api_key_2` do; `code_email`,
    /// `password_hint_url`, `token_company`, `otp_required`, `country_code` do not. A credential word earlier in the
    /// name qualifies what the value is about (`code_email` is the address codes go to), not what it is. Keys a
    /// backend chooses (JSON fields, store keys) are read by `isCredential`, which also looks inside the name.
    static func isCredentialName(_ name: String) -> Bool {
        guard mayNameCredential(name) else { return false }
        let words = words(of: name)
        guard let last = words.last else { return false }
        if words.count == 1 { return credentialWords.contains(last) || credentialKeys.contains(last) }
        guard credentialWords.contains(last) else { return false }
        return !(last == code && codeQualifiers.contains(words[words.count - 2]))
    }

    /// Whether `key` is a credential only through the word `code` (`code`, `verificationCode`), which backends
    /// also use for error codes (`{"code": "otp_expired"}`), unlike `token` or `password`.
    static func namesOnlyACode(_ key: String) -> Bool {
        guard isCredential(key) else { return false }
        let words = words(of: key)
        return words.contains(code)
            && !words.contains {
                $0 != code && (credentialWords.contains($0) || (words.count == 1 && credentialKeys.contains($0)))
            }
    }

    /// Whether some credential word (or standalone credential key) occurs in `key`, ignoring case and word bounds.
    /// One pass: at each byte, only the words that begin with that letter are compared, instead of one search of
    /// the whole key per word; every stored value and captured variable asks this.
    static func mayNameCredential(_ key: String) -> Bool {
        withASCIILowercased(key) { bytes in
            for start in bytes.indices {
                let first = bytes[start]
                guard first >= 97, first <= 122 else { continue }
                for word in wordsByFirstLetter[Int(first - 97)] where start + word.count <= bytes.count {
                    if word.indices.allSatisfy({ bytes[start + $0] == word[$0] }) { return true }
                }
            }
            return false
        }
    }

    /// The credential words and standalone keys, grouped by first letter (`a` at 0).
    private static let wordsByFirstLetter: [[[UInt8]]] = (0..<26).map { letter in
        substrings.filter { $0.first == UInt8(97 + letter) }
    }

    /// Whether the lowercase ASCII `word` occurs in `key`, ignoring case and word bounds (a byte scan, no Foundation).
    static func mentions(_ word: [UInt8], in key: String) -> Bool { withASCIILowercased(key) { occurs(word, in: $0) } }

    /// `key`'s bytes with ASCII letters lowercased, in scratch memory rather than an array: asked for every key of
    /// every stored value and every body shown.
    private static func withASCIILowercased<Result>(_ key: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result)
        -> Result
    {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: key.utf8.count) { scratch in
            for (offset, byte) in key.utf8.enumerated() {
                scratch[offset] = byte >= 65 && byte <= 90 ? byte | 0x20 : byte
            }
            return body(UnsafeBufferPointer(scratch))
        }
    }

    private static func occurs(_ part: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        part.withUnsafeBufferPointer { TextSearch.firstOffset(of: $0, in: bytes) != nil }
    }

    /// Every word that can make a key a credential, as bytes, shortest first (`pin` before `password`).
    static let substrings: [[UInt8]] = (credentialWords.union(credentialKeys)).sorted { $0.count < $1.count }

    /// Lower-cased ASCII words: split at `_`, `-`, `.`, spaces and digits, and where a lower-case letter meets an
    /// upper-case one (`refreshToken`). `apiKey` gives `api`, `key`; `apikey` stays one word.
    static func words(of key: String) -> [[UInt8]] {
        var words: [[UInt8]] = []
        var current: [UInt8] = []
        var previousWasLower = false
        for byte in key.utf8 {
            let isUpper = byte >= 65 && byte <= 90, isLower = byte >= 97 && byte <= 122
            guard isUpper || isLower || byte >= 128 else {
                if !current.isEmpty { words.append(current); current = [] }
                previousWasLower = false
                continue
            }
            if isUpper, previousWasLower, !current.isEmpty { words.append(current); current = [] }
            current.append(isUpper ? byte | 0x20 : byte)
            previousWasLower = isLower
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
