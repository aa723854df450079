import ArgumentParser
import FlowSpecLanguage
import FlowSpecRuntime

/// Base URLs made from the user's run variables (`--vars-file`, `FLOWSPEC_VAR_*`, `--var`, `--base-url`) are checked
/// before anything is sent: a port past 65535, a query or a fragment there is the user's mistake (exit 2, naming the
/// variable and the flow's `base_url`), not a failure of each flow that reaches it. Base URLs that also read inputs
/// or the store are checked where each request is built (`RequestURL`).
enum BaseURLCheck {
    static func validate(_ flows: some Sequence<Flow>, vars: [String: JSONValue]) throws {
        var problems: [String] = []
        var seen: Set<String> = []
        var environment = Environment()
        environment.vars = vars
        for flow in flows {
            guard let template = flow.baseURL, !template.expressions.isEmpty else { continue }
            // Only templates that read run variables and nothing else have their value now.
            guard template.expressions.allSatisfy({ expr in expr.roots.allSatisfy { $0.0 == .vars } }) else { continue }
            guard let text = try? Evaluator.render(template, environment) else { continue }
            guard let problem = RequestURL.baseURLProblem(text) else { continue }
            let names = template.expressions.flatMap(\.varsReads).map { "vars.\($0.0)" }
            let message =
                "\(template.location): error: base URL \(shown(text)) (from \(names.joined(separator: ", "))) "
                + "cannot be used: \(problem)\n  hint: fix the variable where you set it (--vars-file, FLOWSPEC_VAR_<name> or --var)"
            if seen.insert(message).inserted { problems.append(message) }
        }
        guard !problems.isEmpty else { return }
        for problem in problems { Console.error(problem) }
        throw ExitCode(Exit.invalid)
    }

    /// A URL as a message shows it: quoted, its credentials masked.
    static func shown(_ url: String) -> String {
        "`\(Redactor().redactURL(RequestURL.maskingCredentials(url)))`"
    }
}
