import FlowSpecLanguage
import FlowSpecScenarios
import Foundation

/// Writes a BROKEN verdict as a flow and a live scenario in FlowSpec's own language, so the team can read the
/// attack step by step, run it with `flowspec run`, and keep it as a regression test once fixed. Values never
/// appear in them: tokens are read from the store and inputs from the probe file's templates.
package struct ReproductionWriter: Sendable {
    package let specs: SpecSet
    /// The text of a flow file (the code replay copies the login flow from it); the disk unless a test says otherwise.
    let readFile: @Sendable (String) -> String?

    package init(
        specs: SpecSet,
        readFile: @escaping @Sendable (String) -> String? = { try? String(contentsOfFile: $0, encoding: .utf8) }
    ) {
        self.specs = specs
        self.readFile = readFile
    }

    package struct Files: Sendable {
        package var stem: String
        package var flow: String
        package var scenario: String
        /// Further flows the scenario runs, by file stem (`DIR/probe/STEM.yaml`).
        package var moreFlows: [String: String] = [:]
    }

    package func files(for verdict: ProbeVerdict, _ declaration: ProbeDeclaration) -> Files? {
        guard let reproduction = verdict.reproduction, let session = specs.sessions[declaration.session.name] else {
            return nil
        }
        let stem =
            ([
                declaration.session.name.replacingOccurrences(of: ".", with: "-"),
                verdict.kind.rawValue.replacingOccurrences(of: "_", with: "-"),
            ]
            + (verdict.check.isEmpty ? [] : [Self.slug(verdict.check)])).joined(separator: "-")
        var context = Context(
            declaration: declaration, session: session, verdict: verdict, flowName: "probe.\(stem)",
            login: declaration.login.name, loginInputs: declaration.loginInputs, namespace: session.namespace)
        var states = ""
        var defaults = ""
        var wholeFlow: String?
        switch reproduction {
        case .rotation: states = rotation(context)
        case .reuseDetection(let grace, let interval, let family):
            states = reuse(context, grace: grace, interval: interval, family: family)
        case .logoutRevokes: (defaults, states) = logout(context)
        case .tokenSwap(let flow, let state, let token):
            guard let sent = request(context, flow: flow, state: state, token: .swapped(token)) else { return nil }
            (defaults, states) = sent
        case .foreignToken(let flow, let state, let other, let login, let accessKey, let inputs):
            guard let foreign = specs.sessions[other] else { return nil }
            (context.login, context.loginInputs, context.namespace) = (login, inputs, foreign.namespace)
            guard let sent = request(context, flow: flow, state: state, token: .foreign(accessKey)) else { return nil }
            (defaults, states) = sent
        case .expiry(let flow, let state, let seconds):
            guard let sent = request(context, flow: flow, state: state, token: .own, wait: seconds) else { return nil }
            (defaults, states) = sent
        case .accessAfterLogout(let flow, let state):
            guard let sent = accessAfterLogout(context, flow: flow, state: state) else { return nil }
            (defaults, states) = sent
        case .codeReplay(let flow, let state):
            guard let copied = codeReplay(context, flow: flow, state: state) else { return nil }
            wholeFlow = copied
        case .atomicBurst(let burst, let grace):
            return self.burst(context, stem: stem, copies: burst, grace: grace)
        }
        let flow =
            header(context)
            + (wholeFlow ?? """
                flow: \(context.flowName)
                title: \(title(context))
                namespace: \(context.namespace)
                \(defaults)start: log_in
                states:
                \(states)
                """)
        let scenario = """
            # Written by `flowspec probe --reproduce`; see the flow probe/\(stem).yaml for the steps.
            scenario: \(Self.quoted("probe \(declaration.session.name) \(verdict.kind.rawValue)\(verdict.check.isEmpty ? "" : " (\(verdict.check))"): \(verdict.kind.title) holds (reproduces a BROKEN verdict)"))
            live: true
            tags: [probe, live]
            flow: \(context.flowName)
            \(inputs(context.loginInputs))expect:
              outcome: held

            """
        return Files(stem: stem, flow: flow, scenario: scenario)
    }

    /// The comment that opens every reproduction flow: what was seen, the promise, how to run it.
    func header(_ c: Context) -> String {
        """
        # Reproduces a BROKEN verdict of `flowspec probe` (docs/probe.md): \(c.verdict.kind.rawValue)\(c.verdict.check.isEmpty ? "" : " · \(c.verdict.check)") on \(c.declaration.session.name).
        # What was seen: \(c.verdict.detail)
        # The promise: \(c.verdict.source)
        # Run it: flowspec run <this folder> --flows flows --vars-file <your variables>; it passes once the backend keeps the promise.

        """
    }

    func title(_ c: Context) -> String { Self.quoted(c.titleText) }

    struct Context {
        let declaration: ProbeDeclaration
        let session: SessionDef
        let verdict: ProbeVerdict
        let flowName: String
        /// The flow that logs in, with the scenario's inputs for it, and the namespace the reproduction runs in:
        /// the session's own, or for an isolation probe the other session's.
        var login: String
        var loginInputs: ScenarioInputs
        var namespace: String
        var key: String { declaration.refreshTokenKey }
        var titleText: String {
            "Reproduces: \(verdict.kind.title)\(verdict.check.isEmpty ? "" : ", \(verdict.check)") (\(declaration.session.name))"
        }
        var refresh: String { session.refresh?.flow.name ?? "" }
    }

    func logIn(_ c: Context, success next: String, set: String = "") -> String {
        """
          log_in:
            call: \(c.login)
            on:
              - when: success
        \(set.isEmpty ? "" : "        set: { \(set) }\n")        goto: \(next)
              - else: true
                set: { why: reason }
                goto: not_checked
          not_checked:
            end: not_checked
            success: false
            reason: "not checked: the login did not succeed: ${why}"

        """
    }

    func ends(_ held: String, _ broken: String) -> String {
        """
          held:
            end: held
            success: true
            reason: \(Self.quoted(held))
          broken:
            end: broken
            success: false
            reason: \(Self.quoted(broken))

        """
    }

    /// A YAML double-quoted scalar (JSON string syntax, which YAML reads the same).
    static func quoted(_ text: String) -> String { YAMLWriter.quoted(text) }

    static func slug(_ text: String) -> String {
        let words = text.lowercased().split { !($0.isLetter || $0.isNumber) }
        return words.joined(separator: "-")
    }
}
