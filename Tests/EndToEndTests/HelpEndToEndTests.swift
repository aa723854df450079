import Foundation
import Testing

/// `--help` as a newcomer reads it: each default said once, in words that do not depend on this machine.
@Suite(.timeLimit(.minutes(5))) struct HelpEndToEndTests {
    @Test(arguments: ["run", "coverage", "exec", "check", "sandbox", "paths", "graph", "merge", "schema"])
    func everyDefaultIsSaidOnce(_ command: String) async throws {
        let result = try await FlowSpecBinary.run([command, "--help"])
        #expect(result.status == 0, "\(result.all)")
        // ArgumentParser appends "(default: X)" to an option with an initial value; ours often say it in words.
        let folded = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let twice = folded.firstMatch(of: #/\(default[^)]*\)\.? \(default:/#)
        #expect(twice == nil, "\(command) --help says a default twice: \(twice.map { String($0.output) } ?? "")")
        #expect(!result.stdout.contains(".0)"), "a default printed as a Double (30.0): \(result.stdout)")
    }

    @Test func jobsSaysNumberOfCoresNotThisMachinesCount() async throws {
        let result = try await FlowSpecBinary.run(["run", "--help"])
        // Help wraps long lines: compare with the whitespace folded.
        let folded = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(
            folded.contains("--jobs <jobs> How many scenarios run at once (default: number of cores). --"), "\(folded)")
    }
}
