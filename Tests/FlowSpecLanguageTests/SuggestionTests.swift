import Foundation
import Testing

@testable import FlowSpecLanguage

@Suite(.timeLimit(.minutes(5))) struct SuggestionTests {
    @Test func typosStillFindTheirName() {
        #expect(
            Suggestion.closest(to: "repairminder.staf-login", in: ["repairminder.staff-login", "supabase.phone-otp"])
                == "repairminder.staff-login")
        #expect(Suggestion.closest(to: "GOTO", in: ["goto", "set"]) == "goto")
        #expect(Suggestion.closest(to: "completely-different", in: ["goto", "set"]) == nil)
    }

    /// A 1 MiB unknown name against a thousand long candidates used to cost seconds per candidate.
    @Test func aMegabyteNameAgainstManyCandidatesIsQuick() {
        let huge = String(repeating: "a", count: 1 << 20)
        let candidates = (0..<1000).map { "system\($0)." + String(repeating: "a", count: 200) }
        let started = Date()
        #expect(Suggestion.closest(to: huge, in: candidates + [huge + "b"]) == nil)
        #expect(Date().timeIntervalSince(started) < 5)
    }

    /// An unknown name is answered with the closest known one, else all of them in the order given, else that there
    /// are none (it once read "its inputs: " with nothing after it).
    @Test func anUnknownNameIsAnsweredWithTheNamesThereAre() {
        #expect(
            Suggestion.amongNames("pasword", in: ["email", "password"], listing: "inputs") == "did you mean `password`?"
        )
        #expect(
            Suggestion.amongNames("phone", in: ["email", "password", "code"], listing: "inputs")
                == "its inputs: email, password, code")
        #expect(Suggestion.amongNames("email", in: [], listing: "inputs") == "it has no inputs")
    }

    @Test func longMessagesShowTheirStartAndLength() {
        let message = "unknown flow `" + String(repeating: "x", count: 5000) + "`"
        let diagnostic = Diagnostic.error(SourceLocation(file: "f.yaml", line: 1, column: 1), message)
        #expect(diagnostic.message.count < 450)
        #expect(diagnostic.message.hasSuffix("… (5015 characters)"))
    }
}
