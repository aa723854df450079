import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

/// Run variables whose names look like credentials are masked by value, except yes/no flags: a flag named
/// `login_codes_single_use` must not turn every "true" in a run's output into ••••.
@Suite(.timeLimit(.minutes(5))) struct RedactorVariableTests {
    @Test func aFlagUnderACredentialNameIsNotMasked() {
        let redactor = Redactor()
        redactor.registerVariables([
            "login_codes_single_use": .string("true"), "other_code_flag": .bool(false),
            "staff_password": .string("correct-horse"),
        ])
        #expect(redactor.redact("requiresTwoFactor true, isMobile false") == "requiresTwoFactor true, isMobile false")
        #expect(redactor.redact("password correct-horse") == "password \(Redactor.mask)")
    }
}
