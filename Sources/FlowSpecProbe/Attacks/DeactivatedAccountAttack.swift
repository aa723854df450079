import FlowSpecLanguage
import FlowSpecRuntime
import FlowSpecScenarios

/// A deactivated account's access token opens nothing: disabling a leaver must take effect at once, not when their
/// token expires (simplejwt's `CHECK_USER_IS_ACTIVE`, Django's `is_active`). Uses a throwaway account, deactivated by a
/// command of the user's (an admin API call, a database update) and reactivated afterwards where one is given.
enum DeactivatedAccountAttack: ProbeAttack {
    static let name = "deactivated_account"
    static let title = "a deactivated account's tokens"
    static let stage = ProbeStage.own
    static let options = [
        ProbeOption(
            "inputs", .inputs, "Login inputs of a throwaway account, which the probe deactivates.", required: true),
        ProbeOption(
            "deactivate", .command,
            "A shell command that deactivates that account (its non-secret login inputs are in its environment, e.g. `$username`).",
            required: true),
        ProbeOption(
            "reactivate", .command,
            "Optional: a shell command that makes it active again afterwards, so the next run can log in."),
    ]
    static let sends =
        "logs in a throwaway account, runs `deactivate`, then sends its access token to every protected flow; runs `reactivate` last"
    static let control = "the protected flows accept the token just before the account is deactivated"
    static let heldWhen = "every protected flow refuses the token afterwards"

    static func run(_ c: ProbeCheck, _ shared: inout SharedLogin?) async -> [ProbeVerdict] {
        guard let promise = c.promise, let inputs = promise.inputs("inputs"),
            let deactivateTemplate = promise.duration("deactivate")
        else { return [] }
        // The commands first: one from a run variable that is not given leaves the check out before any login.
        let deactivate: String
        switch render(c, deactivateTemplate, "deactivate") {
        case .success(let line): deactivate = line
        case .failure(let verdict): return [verdict.verdict]
        }
        var reactivate: String?
        if let template = promise.duration("reactivate") {
            switch render(c, template, "reactivate") {
            case .success(let line): reactivate = line
            case .failure(let verdict): return [verdict.verdict]
            }
        }
        let login = await c.probe.login(inputs: inputs)
        guard login.succeeded else { return [c.notLoggedIn(login)] }
        return await c.withAcceptedAccessToken(login.tokens) { token in
            let environment = await commandEnvironment(c, inputs)
            if let failed = await runCommand(c, deactivate, "deactivate", environment) { return [failed] }
            var found = c.refusal(
                "", await c.protectedAnswers(token: token, replacement: token, tokens: login.tokens),
                controlWhen: "before that, ")
            if found.status == .held || found.status == .broken {
                found.detail = "after the account was deactivated, " + found.detail
            }
            if let reactivate, let failed = await runCommand(c, reactivate, "reactivate", environment) {
                return [found, failed]
            }
            return [found]
        }
    }

    struct NotRendered: Error { let verdict: ProbeVerdict }

    static func render(_ c: ProbeCheck, _ template: Template, _ what: String) -> Result<String, NotRendered> {
        var env = Environment()
        env.vars = c.environment.vars
        do {
            return .success(try Evaluator.render(template, env))
        } catch {
            // A command from a run variable that is not given: left out by choice, as for any optional variable.
            if let name = error.unsetVariable {
                return .failure(
                    NotRendered(
                        verdict: c.verdict(
                            "", .skipped, "not checked: `\(what)` reads the run variable \(name), not given")))
            }
            return .failure(NotRendered(verdict: c.verdict("", .error, "not checked: `\(what)`: \(error.message)")))
        }
    }

    /// The account's non-secret login inputs, as input commands see them.
    static func commandEnvironment(_ c: ProbeCheck, _ inputs: ScenarioInputs) async -> [String: String] {
        let now = await c.environment.clock.now()
        guard
            let (values, _) = try? inputs.resolved(c.environment.vars, now: now, c.environment.redactor, origin: .probe)
        else { return [:] }
        let secret = c.environment.contexts.secretUses.inputs
        var out: [String: String] = [:]
        for (name, list) in values where !secret.contains(name) { if let value = list.first { out[name] = value } }
        return out
    }

    static func runCommand(_ c: ProbeCheck, _ line: String, _ what: String, _ environment: [String: String]) async
        -> ProbeVerdict?
    {
        var command = ShellCommand(line, environment: environment, timeoutSeconds: c.environment.commandTimeout)
        command.requiresOutput = false
        do {
            _ = try await command.run()
            return nil
        } catch {
            return c.verdict(
                what, .error, "not checked: the `\(what)` command failed: \(c.environment.redactor.redact("\(error)"))")
        }
    }
}

extension ProbeKind {
    package static let deactivatedAccount = ProbeKind(DeactivatedAccountAttack.self)
}
