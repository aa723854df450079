import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecScenarios

/// The embedded sandbox starts only for a live run that names no backend of its own and whose flows read the
/// sandbox's URL variables.
@Suite(.timeLimit(.minutes(5))) struct EmbeddedSandboxRuleTests {
    let shipped: Set<String> = ["repairminder_url", "legacy_url"]

    @Test func startsForALiveRunThatNamesNoBackend() {
        let rule = EmbeddedSandboxRule(needed: true, backendVariables: shipped, embedded: true)
        #expect(rule.sandboxVariables(given: [:]) == ["legacy_url", "repairminder_url"])
        #expect(rule.sandboxVariables(given: ["unrelated": .string("x")]) == ["legacy_url", "repairminder_url"])
    }

    @Test func neverStartsWhenTheRunNamesABackendOrDoesNotWantIt() {
        let rule = EmbeddedSandboxRule(needed: true, backendVariables: shipped, embedded: true)
        // One shipped URL pointed at staging: no scenario of the run may be answered by the sandbox.
        #expect(rule.sandboxVariables(given: ["legacy_url": .string("https://staging.example")]) == nil)
        #expect(
            EmbeddedSandboxRule(needed: true, backendVariables: shipped, embedded: false).sandboxVariables(given: [:])
                == nil, "--no-sandbox")
        #expect(
            EmbeddedSandboxRule(needed: false, backendVariables: shipped, embedded: true).sandboxVariables(given: [:])
                == nil, "nothing live")
        // The flows read a backend of the user's own: the sandbox would answer none of it.
        let own = EmbeddedSandboxRule(needed: true, backendVariables: ["api_url"], embedded: true)
        #expect(own.sandboxVariables(given: [:]) == nil)
        let mixed = EmbeddedSandboxRule(needed: true, backendVariables: ["api_url", "supabase_url"], embedded: true)
        #expect(mixed.sandboxVariables(given: ["api_url": .string("http://localhost:1")]) == nil)
        #expect(mixed.sandboxVariables(given: [:]) == ["supabase_url"])
    }

    @Test func saysWhatItStartedAndHowToAvoidIt() {
        let rule = EmbeddedSandboxRule(needed: true, backendVariables: shipped, embedded: true, purpose: "probes")
        let said = rule.started(baseURL: "http://127.0.0.1:1", legacyURL: "http://127.0.0.1:2", answering: ["a_url"])
        #expect(said.hasPrefix("probes: started the embedded sandbox at http://127.0.0.1:1"))
        #expect(said.contains("give it with --vars-file or --var") && said.hasSuffix("or --no-sandbox"))
        struct Refused: Error {}
        #expect(
            rule.notStarted(because: Refused(), answering: ["a_url", "b_url"]).hasSuffix(
                "need a_url, b_url have no backend"))
    }
}
