import Foundation
import Testing

@testable import FlowSpecSandbox

/// docs/sandbox.md is what QA engineers read; these tests keep it true to the code.
@Suite("docs/sandbox.md", .timeLimit(.minutes(5)))
struct DocsTests {
    static let docs: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/sandbox.md"), encoding: .utf8)) ?? ""
    }()

    @Test("the accounts example loads to exactly the built-in accounts")
    func exampleIsTheDefaults() throws {
        let blocks = Self.docs.components(separatedBy: "```yaml\n").dropFirst().map {
            $0.components(separatedBy: "```")[0]
        }
        let example = try #require(blocks.first { $0.hasPrefix("# sandbox-accounts-example") })
        let accounts = try SandboxAccounts.parse(example, file: "docs/sandbox.md")
        #expect(accounts == .defaults)
    }

    @Test("every break and every live variable is documented")
    func everythingListed() {
        for brokenPromise in SandboxBreak.allCases {
            #expect(Self.docs.contains("| `\(brokenPromise.rawValue)` |"), "break \(brokenPromise.rawValue) missing")
        }
        let vars = SandboxAccounts.defaults.liveVars(baseURL: "http://x", legacyURL: "http://y")
        for key in vars.keys {
            #expect(Self.docs.contains("`\(key)`"), "variable \(key) missing")
        }
    }
}
