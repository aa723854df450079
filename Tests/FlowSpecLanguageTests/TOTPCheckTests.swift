import Testing

@testable import FlowSpecLanguage

/// `totp(secret, digits, period, algorithm)` is checked at load time like every function.
@Suite(.timeLimit(.minutes(5))) struct TOTPCheckTests {
    @Test func takesOneToFourArguments() throws {
        #expect(parseError("totp()")?.message.contains("`totp` takes 1 to 4 arguments, got 0") == true)
        #expect(
            parseError(#"totp("A", 6, 30, "sha1", 1)"#)?.message.contains("`totp` takes 1 to 4 arguments, got 5")
                == true)
        #expect(parseError("exists(1, 2)")?.message.contains("`exists` takes 1 argument, got 2") == true)
        #expect(try typeErrors(#"totp(vars.totp_secret) == "123456""#) == [])
        #expect(try typeErrors(#"totp(vars.s, 8, 30, "sha256") == "12345678""#) == [])
        #expect(try typeErrors(#"totp(vars.s, vars.d, vars.p, vars.a) == "1""#) == [])
    }

    @Test func theResultIsAString() throws {
        #expect(try typeErrors("totp(vars.s) == 123456").contains { $0.contains("comparing a string with a number") })
    }

    @Test(
        "argument types and literal values are checked",
        arguments: [
            ("totp(5) == \"1\"", "`totp` takes the base32 secret as text, not a number"),
            (#"totp("JBSWY3DPEHPK3PXP", "6") == "1""#, "`totp` takes the number of digits, not a string"),
            (#"totp("JBSWY3DPEHPK3PXP", 6, "30") == "1""#, "`totp` takes the period in seconds, not a string"),
            (#"totp("JBSWY3DPEHPK3PXP", 6, 30, 1) == "1""#, "`totp` takes the algorithm as text, not a number"),
            (#"totp("not base32!") == "1""#, "character 10 of the secret is not one of them"),
            (#"totp("") == "1""#, "it is empty"),
            (#"totp("JBSWY3DPEHPK3PXP", 4) == "1""#, "digits must be a whole number from 6 to 8"),
            (#"totp("JBSWY3DPEHPK3PXP", 6.5) == "1""#, "digits must be a whole number from 6 to 8"),
            (#"totp("JBSWY3DPEHPK3PXP", 6, 0) == "1""#, "period must be a whole number of seconds from 1"),
            (
                #"totp("JBSWY3DPEHPK3PXP", 6, 30, "md5") == "1""#,
                #"algorithm must be one of "sha1", "sha256", "sha512""#
            ),
        ])
    func checked(expression: String, message: String) throws {
        let errors = try typeErrors(expression)
        #expect(errors.contains { $0.contains(message) }, "\(errors)")
    }

    @Test func base32Decoding() {
        #expect(
            TOTPRules.base32Decode("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ") == .success(Array("12345678901234567890".utf8)))
        #expect(TOTPRules.base32Decode("gezd gnbv") == TOTPRules.base32Decode("GEZDGNBV"))
        #expect(TOTPRules.base32Decode("MZXW6===") == .success(Array("foo".utf8)))
        #expect(TOTPRules.base32Decode("MZXW1") == .failure(.notBase32(position: 5)))
        #expect(TOTPRules.base32Decode("=") == .failure(.empty))
    }
}
