import FlowSpecLanguage
import TestSupport
import Testing

@testable import FlowSpecDiagrams

@Suite(.timeLimit(.minutes(5))) struct PathFinderTests {
    /// Password, then a code that may be wrong (ask again), may be invalid, with an offline branch.
    static let login = """
        flow: t.login
        inputs:
          email: { type: email }
          code: { type: code }
        start: login
        states:
          login:
            request: { method: POST, path: /login, json: { email: "${inputs.email}" } }
            on:
              - when: status == 200 && body.requires2FA == true
                goto: ask_code
              - when: status == 200
                goto: ok
              - else: true
                goto: rejected
            unreachable: offline
          ask_code: { input: code, goto: verify, invalid: rejected }
          verify:
            request: { method: POST, path: /verify, json: { code: "${inputs.code}" } }
            on:
              - when: status == 200
                goto: ok
              - when: status == 401
                goto: ask_code
          ok: { end: ok, success: true }
          rejected: { end: rejected, success: false }
          offline: { end: offline, success: false }
        """

    static func report(_ yaml: String, _ name: String) throws -> (PathReport, CompiledFlow) {
        let specs = try TestSpecs.load(["\(name).yaml": yaml])
        let flow = CompiledFlow(try #require(specs.flows[name]))
        return (PathFinder.report(flow), flow)
    }

    static func describe(_ path: FlowPath) -> String {
        path.edges.map { "\($0.state)#\($0.index)" }.joined(separator: " ") + " → " + path.last
    }

    @Test func listsShortestPathsToEndsThenUncoveredEdges() throws {
        let (report, _) = try Self.report(Self.login, "t.login")
        #expect(
            report.paths.map(Self.describe) == [
                "login#1 → ok", // end `ok`: one edge, not through 2FA
                "login#2 → rejected", // end `rejected`
                "login#3 → offline", // end `offline`
                "login#0 ask_code#1 → rejected", // edge login#0, then the nearest end (invalid code)
                "login#0 ask_code#0 verify#0 → ok", // edge ask_code#0; verify#0 comes along
                "login#0 ask_code#0 verify#1 ask_code#1 → rejected", // edge verify#1: wrong code, asked again
            ])
        #expect(
            report.paths.map { path -> String in
                switch path.purpose {
                case .end(let end): "end \(end)"
                case .edge(let edge): "edge \(edge.state)#\(edge.index)"
                }
            } == ["end ok", "end rejected", "end offline", "edge login#0", "edge ask_code#0", "edge verify#1"])
        #expect(report.unreachableStates.isEmpty)
        #expect(report.deadEndEdges.isEmpty)
    }

    @Test func everyReachableEdgeIsOnSomePathAndNoEdgeRepeatsMoreThanOnce() throws {
        let (report, flow) = try Self.report(Self.login, "t.login")
        let covered = Set(report.paths.flatMap(\.edges))
        #expect(covered == Set(flow.allEdges))
        for path in report.paths {
            var counts: [Edge: Int] = [:]
            for edge in path.edges { counts[edge, default: 0] += 1 }
            #expect(counts.values.allSatisfy { $0 <= 2 }, "\(Self.describe(path))")
            #expect(flow.state(named: path.last)?.ending != nil)
        }
    }

    @Test func retryLoopGoesAroundOnce() throws {
        let yaml = """
            flow: t.retry
            inputs:
              code: { type: code }
            start: ask
            states:
              ask: { input: code, goto: verify }
              verify:
                request: { method: POST, path: /verify }
                on:
                  - when: status == 200
                    goto: ok
                  - when: status == 401
                    goto: ask
              ok: { end: ok, success: true }
            """
        let (report, _) = try Self.report(yaml, "t.retry")
        #expect(report.paths.map(Self.describe) == ["ask#0 verify#0 → ok", "ask#0 verify#1 ask#0 verify#0 → ok"])
    }

    @Test func reportsUnreachableStatesAndDeadEndEdges() throws {
        let yaml = """
            flow: t.odd
            start: a
            states:
              a:
                choice:
                  - when: 1 == 1
                    goto: done
                  - else: true
                    goto: spin
              spin: { wait: 1s, goto: spin2 }
              spin2: { wait: 1s, goto: spin }
              island: { wait: 1s, goto: done }
              done: { end: done, success: true }
            """
        let specs = SpecSet(sources: ["t.yaml": yaml])
        let flow = try #require(specs.flows["t.odd"])
        let report = PathFinder.report(CompiledFlow(flow))
        #expect(report.paths.map(Self.describe) == ["a#0 → done"])
        #expect(report.unreachableStates == ["island"])
        #expect(report.deadEndEdges.map { "\($0.state)#\($0.index)" } == ["a#1", "spin#0", "spin2#0"])
    }

    @Test func isStableAcrossRuns() throws {
        let first = try Self.report(Self.login, "t.login")
        for _ in 0..<5 {
            let again = try Self.report(Self.login, "t.login")
            #expect(PathsText.render(again.0, flow: again.1) == PathsText.render(first.0, flow: first.1))
            #expect(PathsJSON.render(again.0, flow: again.1) == PathsJSON.render(first.0, flow: first.1))
        }
    }

    @Test func textShowsGuardsLocationsAndInputs() throws {
        let (report, flow) = try Self.report(Self.login, "t.login")
        let text = PathsText.render(report, flow: flow)
        #expect(text.hasPrefix("flow t.login (t.login.yaml): 6 paths\n"))
        #expect(
            text.contains(
                "1. to end `ok` (success) — 2 states\n   login → ok\n   login [POST /login]\n     --status == 200-->  t.login.yaml:"
            ))
        #expect(
            text.contains(
                "4. through `login` #0 (status == 200 && body.requires2FA == true) → `ask_code`, then to end `rejected` (failure) — 3 states"
            ))
        #expect(text.contains("   ask_code [input code]\n     -->  t.login.yaml:"))
        #expect(text.contains("--unreachable-->"))
        #expect(text.contains("--invalid-->"))
        #expect(text.contains("   inputs: email, code\n"))
    }

    @Test func jsonHasTheDocumentedShape() throws {
        let (report, flow) = try Self.report(Self.login, "t.login")
        let json = PathsJSON.value(report, flow: flow)
        #expect(json["schema"] == .string("flowspec-paths"))
        guard case .array(let paths) = json["paths"] else { Issue.record("no paths"); return }
        #expect(paths.count == 6)
        let fourth = paths[3]
        #expect(fourth["ends"] == .string("rejected"))
        #expect(fourth["success"] == .bool(false))
        #expect(fourth["covers"] == .object(["state": .string("login"), "index": .number(0)]))
        #expect(fourth["inputs"] == .array([.string("email"), .string("code")]))
        guard case .array(let edges) = fourth["edges"] else { Issue.record("no edges"); return }
        #expect(edges.first?["label"] == .string("status == 200 && body.requires2FA == true"))
        #expect(edges.first?["target"] == .string("ask_code"))
        #expect(edges.first?["location"].stringValue?.hasPrefix("t.login.yaml:") == true)
        #expect(JSONValue.parse(PathsJSON.render(report, flow: flow)) == json)
    }
}
