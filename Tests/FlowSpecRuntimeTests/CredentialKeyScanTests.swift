import Testing

@testable import FlowSpecRuntime

/// The one-pass prefilter of `CredentialKey` says what its definition says: some credential word occurs in the key,
/// ASCII letters compared without case. Checked on realistic keys and on random ones built from the words' pieces.
@Suite(.timeLimit(.minutes(5))) struct CredentialKeyScanTests {
    /// The definition, spelt out: lowercase the ASCII letters, then look for each word at each position.
    func definition(_ key: String) -> Bool {
        let bytes = key.utf8.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }
        return CredentialKey.substrings.contains { word in
            bytes.count >= word.count
                && (0...(bytes.count - word.count)).contains { start in
                    Array(bytes[start..<(start + word.count)]) == word
                }
        }
    }

    @Test(arguments: [
        "access_token", "refreshToken", "id", "name", "email", "X-API-KEY", "token_type", "postcode", "otp", "OTP",
        "", "a", "pi", "pin", "PIN_hash", "cookie", "coo", "verifier", "nonce", "nonc", "bearer", "é_token", "tokén",
        "session_id", "supabase_anon_key", "passwd", "credentials", "jwtsecret", "authorization", "autho",
    ])
    func thePrefilterIsTheDefinition(key: String) {
        #expect(CredentialKey.mayNameCredential(key) == definition(key), "\(key)")
    }

    @Test func thePrefilterIsTheDefinitionOnRandomKeys() {
        var generator = SystemRandomNumberGenerator()
        let pieces = [
            "tok", "en", "pass", "word", "code", "ot", "p", "jw", "t", "key", "pin", "cook", "ie", "ver", "ifier",
            "non", "ce",
            "acc", "ess", "ref", "resh", "bear", "er", "auth", "orization", "_", "-", "X", "K", "E", "Y", "é", "1",
            "secr", "et", "cred",
        ]
        for _ in 0..<5_000 {
            let key = (0..<Int.random(in: 0...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)!
            }.joined()
            let shouted = Bool.random(using: &generator) ? key.uppercased() : key
            #expect(CredentialKey.mayNameCredential(shouted) == definition(shouted), "\(shouted)")
        }
    }
}
