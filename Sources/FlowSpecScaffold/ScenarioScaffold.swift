import FlowSpecDiagrams
import FlowSpecLanguage

/// One scripted-scenario skeleton: the file name to write it under and its YAML.
package struct ScaffoldFile: Sendable {
    package var fileName: String
    package var yaml: String
    /// What must still be filled in before it can pass (placeholders aside).
    package var openTodos: [String]
}

/// Scripted-scenario skeletons for listed paths (docs/paths.md): inputs, store, one exchange per request
/// with a response chosen to take the path's edge, and the expected outcome and states. YAML is written
/// by hand, every string through `ScaffoldYAML` so nothing can be misread.
package enum ScenarioScaffold {
    package static func files(_ report: PathReport, flow: Flow, specs: SpecSet) -> [ScaffoldFile] {
        let width = max(2, String(report.paths.count).count)
        return report.paths.enumerated().map { offset, path in
            let number = offset + 1
            var builder = ScaffoldBuilder(specs: specs)
            builder.seedVars(of: flow)
            builder.seedSessions(of: flow, path: path)
            builder.walk(flow, edges: path.edges)
            let plan = builder.plan
            let padded = String(repeating: "0", count: max(0, width - String(number).count)) + String(number)
            let name = "\(fileStem(flow.name))-\(padded)-\(fileStem(suffix(path))).yaml"
            return ScaffoldFile(
                fileName: name, yaml: yaml(plan, path: path, number: number, of: report.paths.count, flow: flow),
                openTodos: plan.openTodos)
        }
    }

    /// `repairminder.staff-password-2fa` → `repairminder-staff-password-2fa`; anything unusual becomes `-`.
    static func fileStem(_ text: String) -> String {
        String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") ? $0 : "-" })
    }

    static func suffix(_ path: FlowPath) -> String {
        switch path.purpose {
        case .end(let end): end
        case .edge(let edge): "via-\(edge.state)-\(edge.index)"
        }
    }

    static func scenarioName(_ path: FlowPath, number: Int, flow: Flow) -> String {
        switch path.purpose {
        case .end(let end): "\(flow.name) path \(number): to \(end)"
        case .edge(let edge):
            "\(flow.name) path \(number): \(edge.state) #\(edge.index) to \(edge.target), then \(path.last)"
        }
    }

    private typealias Top = ScenarioFormat.Top
    private typealias Exchange = ScenarioFormat.Exchange
    private typealias Request = ScenarioFormat.ExchangeRequest
    private typealias Response = ScenarioFormat.ExchangeResponse
    private typealias Expect = ScenarioFormat.Expect

    /// Every key is written through `ScenarioFormat`'s, the ones the decoder reads.
    static func yaml(_ plan: ScaffoldPlan, path: FlowPath, number: Int, of total: Int, flow: Flow) -> String {
        var out: [String] = []
        func comment(_ text: String, indent: String = "") { out.append(indent + ScaffoldYAML.comment(text)) }
        comment("Scaffolded by `flowspec paths \(flow.name) --scaffold`: path \(number) of \(total) of `\(flow.file)`.")
        comment("  " + PathsText.title(path, ending: flow.states[path.last]?.ending))
        comment("  " + path.states.joined(separator: " → "))
        comment("Inputs and store values are placeholders (marked TODO): put in what your backend expects, make each")
        comment("response what it really answers, then run it: flowspec run <this file>.")
        let todos = plan.openTodos
        if todos.isEmpty {
            comment("Every response was derived from the guards: it should pass as written.")
        } else {
            comment("Open TODOs (\(todos.count)) — it will not pass until they are done:")
            for todo in todos { comment("  - " + todo.replacingOccurrences(of: "TODO: ", with: "")) }
        }
        out.append("\(Top.scenario): " + YAMLWriter.quoted(scenarioName(path, number: number, flow: flow)))
        out.append("\(Top.tags): [scaffold]")
        out.append("\(Top.flow): " + ScaffoldYAML.string(flow.name))

        if !plan.inputs.isEmpty {
            out.append("\(Top.inputs):")
            for (name, values) in plan.inputs {
                let key = "  " + ScaffoldYAML.string(name) + ":"
                if values.count == 1 {
                    out.append(
                        key + " " + YAMLWriter.quoted(values[0].value) + "  " + ScaffoldYAML.comment(values[0].note))
                } else {
                    out.append(key + "  " + ScaffoldYAML.comment("successive answers, one per time the run asks"))
                    for v in values {
                        out.append("    - " + YAMLWriter.quoted(v.value) + "  " + ScaffoldYAML.comment(v.note))
                    }
                }
            }
        }

        if !plan.vars.isEmpty {
            out.append("\(Top.vars):")
            for name in plan.vars.keys.sorted() {
                out.append(
                    "  " + ScaffoldYAML.string(name) + ": " + ScaffoldYAML.flow(plan.vars[name]!) + "  "
                        + ScaffoldYAML.comment("TODO: placeholder run variable"))
            }
        }

        let namespaces = plan.store.keys.sorted().filter { !(plan.store[$0]?.isEmpty ?? true) }
        if !namespaces.isEmpty {
            out.append("\(Top.store):")
            for ns in namespaces {
                out.append("  " + ScaffoldYAML.string(ns) + ":")
                for key in plan.store[ns]!.keys.sorted() {
                    let entry = plan.store[ns]![key]!
                    out.append(
                        "    " + ScaffoldYAML.string(key) + ": " + ScaffoldYAML.flow(entry.value)
                            + (entry.placeholder ? "  " + ScaffoldYAML.comment("TODO: placeholder") : ""))
                }
            }
        }

        if !plan.exchanges.isEmpty {
            out.append("\(Top.exchanges):")
            for exchange in plan.exchanges {
                comment(
                    "\(exchange.flow == flow.name ? "" : exchange.flow + " ")`\(exchange.state)`: \(exchange.edgeText)",
                    indent: "  ")
                for todo in exchange.todos { comment(todo.hasPrefix("TODO") ? todo : "TODO: " + todo, indent: "  ") }
                out.append(
                    "  - \(Exchange.request): { \(Request.method): \(ScaffoldYAML.string(exchange.method)), \(Request.path): \(ScaffoldYAML.string(exchange.path)) }"
                )
                switch exchange.response {
                case .refused:
                    out.append(
                        "    \(Exchange.response): { \(Response.fail): refused }  "
                            + ScaffoldYAML.comment("no response: the path takes `unreachable:`"))
                case .reply(let status, let headers, let json):
                    out.append("    \(Exchange.response):")
                    out.append("      \(Response.status): \(status)")
                    if !headers.isEmpty {
                        out.append(
                            "      \(Response.headers): { "
                                + headers.map { "\(ScaffoldYAML.string($0.0)): \(YAMLWriter.quoted($0.1))" }.joined(
                                    separator: ", ") + " }")
                    }
                    if let json { out.append("      \(Response.json): " + ScaffoldYAML.flow(json)) }
                }
            }
        }

        out.append("\(Top.expect):")
        if let ending = flow.states[path.last]?.ending {
            out.append("  \(Expect.outcome): " + ScaffoldYAML.string(ending.outcome))
            out.append("  \(Expect.success): \(ending.success)")
        }
        out.append("  \(Expect.path): [" + path.states.map(ScaffoldYAML.string).joined(separator: ", ") + "]")
        return out.joined(separator: "\n") + "\n"
    }
}
