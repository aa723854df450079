import Foundation
import Testing

@testable import FlowSpecLanguage

/// Patterns come from flow authors, the text from backends: a backtracking pattern must give up, not hang.
@Suite(.timeLimit(.minutes(5))) struct RegexBudgetTests {
    @Test func aCatastrophicPatternGivesUpWithinItsBudget() throws {
        let regex = try #require(RegexCache.compile("((a*)*)*b"))
        let started = Date()
        #expect(throws: RegexTimedOut.self) { try regex.firstMatch(in: String(repeating: "a", count: 100)) }
        // Before the budget this took over a minute; allow a loaded machine plenty of slack above 0.5 s.
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test func theMessageNamesThePatternAndLengthButNeverTheText() throws {
        let regex = try #require(RegexCache.compile("(x+x+)+y"))
        let text = String(repeating: "x", count: 60)
        do {
            _ = try regex.wholeMatch(text)
            Issue.record("expected the match to give up")
        } catch {
            #expect(error.description.contains("(x+x+)+y"))
            #expect(error.description.contains("60-character"))
            #expect(!error.description.contains(text))
        }
    }

    @Test func ordinaryPatternsOnLargeTextsAnswerNormally() throws {
        let big = String(repeating: "a", count: 5_000_000)
        #expect(try RegexCache.compile("b")!.firstMatch(in: big) == false)
        #expect(try RegexCache.compile("^[a-z]+$")!.wholeMatch(big) == true)
        #expect(try RegexCache.compile("^[0-9]{6}$")!.wholeMatch("123456") == true)
        #expect(try RegexCache.compile("^[0-9]{6}$")!.wholeMatch("12345") == false)
    }
}
