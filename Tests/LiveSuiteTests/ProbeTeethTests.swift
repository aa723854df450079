import FlowSpecHTTP
import FlowSpecLanguage
import FlowSpecProbe
import FlowSpecRuntime
import FlowSpecSandbox
import FlowSpecScenarios
import Foundation
import Testing

/// `flowspec probe`'s teeth: every shipped probe file against the sandbox with each break marked as the probe's
/// (`SandboxBreak.caughtBy`) reports at least one BROKEN verdict, and against the healthy sandbox none.
/// Short lifetimes (`sandbox-fast-probe.json`) let expiry and the Supabase login interval be waited out.
@Suite(.serialized, .timeLimit(.minutes(5))) struct ProbeTeethTests {
    static let suite = SuiteLoader.load(paths: [repositoryRoot.appendingPathComponent("flows").path], flowsFolder: nil)
    static let fastAccounts = repositoryRoot.appendingPathComponent("scenarios/live/sandbox-fast-probe.json").path

    /// Expiry breaks need 2-second tokens; every other break gets the real lifetimes (so a loaded machine cannot let
    /// a token expire between the login and a forgery, which would be refused for the wrong reason) and no expiry probe.
    static let expiryBreaks: Set<SandboxBreak> = [.acceptsExpiredToken, .travelingAcceptsExpiredToken]

    /// The system a break belongs to, by its name: only that system's probe files need to run against it.
    static func system(of broken: SandboxBreak) -> String {
        for (prefix, system) in [("supabase-", "supabase."), ("traveling-", "traveling.")]
        where broken.rawValue.hasPrefix(prefix) { return system }
        return "repairminder."
    }

    func verdicts(breaks: Set<SandboxBreak>, kinds: [ProbeKind] = ProbeKind.allCases, realLifetimes: Bool = false)
        async throws -> [ProbeVerdict]
    {
        var diagnostics = Diagnostics()
        let systems = Set(breaks.map(Self.system))
        let declarations = ProbeLoader.declarations(in: Self.suite, &diagnostics)
            .filter { declaration in systems.isEmpty || systems.contains { declaration.session.name.hasPrefix($0) } }
        #expect(diagnostics.errors.isEmpty, "\(diagnostics.errors)")
        var options = SandboxOptions(breaks: breaks)
        options.accounts = try SandboxAccounts.load(path: Self.fastAccounts)
        if realLifetimes {
            options.accounts.lifetimes = SandboxAccounts.defaults.lifetimes
            options.accounts.traveling = SandboxAccounts.defaults.traveling
            options.accounts.supabase.accessTokenLifetime = SandboxAccounts.defaults.supabase.accessTokenLifetime
        }
        let sandbox = try await Sandbox.start(options)
        var vars: [String: JSONValue] = [:]
        for (name, value) in sandbox.liveVars() { vars[name] = .string(value) }
        var http = LiveHTTPOptions()
        // The sandbox shares this process with the rest of the suite: on a loaded 2-core machine a request can wait.
        http.requestTimeout = 60
        let adapter = LiveHTTPAdapter(options: http)
        let environment = ProbeEnvironment(
            contexts: RunContextFactory(specs: Self.suite.specs, vars: vars, origin: .probe), live: adapter,
            clock: SystemClock(), allowWait: 60, commandTimeout: 30)
        let verdicts = await ProbeRunner(environment: environment, declarations: declarations).run(kinds: kinds)
        await adapter.shutdown()
        await sandbox.stop()
        return verdicts
    }

    @Test func nothingIsBrokenOnTheHealthySandbox() async throws {
        let found = try await verdicts(breaks: [])
        let notFine = found.filter { $0.status == .broken || $0.status == .error || $0.status == .skipped }
        #expect(
            notFine.isEmpty,
            "\(notFine.map { "\($0.session) \($0.kind.rawValue) \($0.check): \($0.status) \($0.detail)" })")
        #expect(found.filter { $0.status == .held }.count >= 40)
    }

    @Test(arguments: SandboxBreak.allCases.filter { $0.caughtBy.contains(.probe) })
    func aBrokenPromiseIsReportedBrokenByAProbe(_ broken: SandboxBreak) async throws {
        let expiry = Self.expiryBreaks.contains(broken)
        let found = try await verdicts(
            breaks: [broken], kinds: expiry ? [.expiry] : ProbeKind.allCases.filter { $0 != .expiry },
            realLifetimes: !expiry)
        let brokenVerdicts = found.filter { $0.status == .broken }
        #expect(!brokenVerdicts.isEmpty, "\(broken.rawValue) was not caught by any probe")
        // Every BROKEN verdict names the promise it broke.
        #expect(brokenVerdicts.allSatisfy { !$0.source.isEmpty })
    }
}
