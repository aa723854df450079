/// Short numeric codes sent by email or SMS, one live code per key (a new code replaces the previous one,
/// like the Repair Minder API's single `magic_link_code` column: docs/systems/repairminder.md, Login Codes).
struct OneTimeCodes<Key: Hashable & Sendable>: Sendable {
    struct Issued: Sendable {
        let code: String
        let expiresAt: Double
        var wrongAttempts: Int
    }

    /// Wrong guesses before the live code is burnt: a 6-digit code must not be brute-forceable through the sandbox.
    static var maxWrongAttempts: Int { 5 }

    private var live: [Key: Issued] = [:]

    mutating func issue(for key: Key, lifetime: Double, now: Double, code: String = Secrets.sixDigitCode()) -> String {
        live[key] = Issued(code: code, expiresAt: now + lifetime, wrongAttempts: 0)
        return code
    }

    /// Whether `code` is the live, unexpired code for `key`. A match is consumed unless `consume` is false
    /// (the customer company-selection step keeps it for the follow-up call, and the `codes-reusable` break).
    /// A wrong code counts against the live one, which is burnt at `maxWrongAttempts` unless `limitAttempts` is
    /// false (the `no-code-attempt-limit` break).
    mutating func redeem(_ code: String, for key: Key, now: Double, consume: Bool = true, limitAttempts: Bool = true)
        -> Bool
    {
        guard var issued = live[key] else { return false }
        if now >= issued.expiresAt {
            live[key] = nil
            return false
        }
        guard ConstantTime.equals(issued.code, code) else {
            issued.wrongAttempts += 1
            live[key] = limitAttempts && issued.wrongAttempts >= Self.maxWrongAttempts ? nil : issued
            return false
        }
        if consume { live[key] = nil }
        return true
    }

    /// When the live code for `key` expires, if there is one.
    func expiry(for key: Key) -> Double? {
        live[key]?.expiresAt
    }

    mutating func discard(for key: Key) {
        live[key] = nil
    }
}
