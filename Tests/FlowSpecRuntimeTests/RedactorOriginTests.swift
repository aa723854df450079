import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

/// Masking follows where a value came from, whatever its type or length, and only that.
@Suite(.timeLimit(.minutes(5))) struct RedactorOriginTests {
    @Test func aShortSecretIsMaskedAsAWholeValueButNotInsideText() {
        let redactor = Redactor()
        redactor.register("x")
        let body = JSONValue.object([
            "password": .string("x"), "name": .string("Max"), "list": .array([.string("x"), .string("xx")]),
        ])
        #expect(redactor.shown(body) == #"{"list":["••••","xx"],"name":"Max","password":"••••"}"#)
        #expect(redactor.redact("x-request-id: 5") == "x-request-id: 5")
        #expect(redactor.redact("x") == Redactor.mask)
    }

    @Test func shortStoreTokensAreMaskedWhereverTheyAreValues() {
        let redactor = Redactor()
        redactor.registerStored("refresh_token", .string("r1"))
        redactor.registerStored("access_token", .string("new"))
        redactor.registerStored("role", .string("admin"))
        #expect(
            redactor.shown(.object(["refreshToken": .string("r1"), "other": .string("new"), "role": .string("admin")]))
                == #"{"other":"••••","refreshToken":"••••","role":"admin"}"#)
        #expect(redactor.redactURL("/refresh?token=r1&page=2") == "/refresh?token=••••&page=2")
    }

    @Test func aStoreKeyMentioningASessionInAnyCaseHoldsASecret() {
        let redactor = Redactor()
        redactor.registerStored("SessionID", .string("s1"))
        redactor.registerStored("my_SESSION", .string("s2"))
        redactor.registerStored("sess", .string("s3"))
        #expect(redactor.isSecret("s1") && redactor.isSecret("s2"))
        #expect(!redactor.isSecret("s3"))
        #expect(
            Redactor.mentionsSession("x_session_y") && !Redactor.mentionsSession("sessio")
                && !Redactor.mentionsSession(""))
    }

    @Test func aCodeCapturedIntoAVariableIsMaskedAsANumberToo() {
        let redactor = Redactor()
        redactor.registerCaptured("code", .number(726603))
        redactor.registerCaptured("attempts", .number(3))
        redactor.registerCaptured("otp_required", .bool(true))
        #expect(
            redactor.shown(.object(["value": .number(726603), "attempts": .number(3), "ok": .bool(true)]))
                == #"{"attempts":3,"ok":true,"value":"••••"}"#)
        #expect(redactor.redact("your code is 726603.") == "your code is ••••.")
    }

    @Test func credentialKeysAreReadWordByWord() {
        for key in [
            "access", "refresh", "access_token", "refreshToken", "staff_password", "supabase_anon_key", "code", "otp",
            "code_verifier", "apiKey", "apikey", "X-Session-Token",
        ] {
            #expect(Redactor.isSensitiveKey(key), "\(key) names a credential")
        }
        for key in [
            "token_type", "tokenType", "expires_in", "otp_length", "status_code", "statusCode", "postcode", "encoded",
            "country_code", "refresh_token_expires_in", "name", "otpSentAt", "access_level", "refresh_interval",
            "code_email", "otp_phone", "token_company", "api_key_name",
        ] {
            #expect(!Redactor.isSensitiveKey(key), "\(key) does not")
        }
        let redactor = Redactor()
        #expect(
            redactor.shown(.object(["token_type": .string("bearer"), "access_token": .string("eyJhbGciOi.x.y")]))
                == #"{"access_token":"••••","token_type":"bearer"}"#)
    }
}
