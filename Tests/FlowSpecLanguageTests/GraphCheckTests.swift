import Testing

@testable import FlowSpecLanguage

/// `checkGraph` finds the states that can reach an end by walking backwards from the ends once. These random flows
/// hold it to the definition, computed here the slow way: a state can end when it is an end state or some transition
/// leads to a state that can end (or to one that is not defined, whose own error says enough).
@Suite(.timeLimit(.minutes(2))) struct GraphCheckTests {
    @Test func statesThatCanNeverEndAreExactlyTheOnesTheDefinitionGives() {
        var seed: UInt64 = 0xC0FF_EE11
        func random(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for round in 0..<60 {
            let count = 2 + random(40)
            var targets: [[Int]] = [] // -1: a state that is not defined
            var ends: Set<Int> = []
            var lines = ["flow: demo.g\(round)", "start: s0", "states:"]
            for index in 0..<count {
                if index > 0, random(5) == 0 {
                    ends.insert(index)
                    targets.append([])
                    lines.append("  s\(index): { end: done, success: true }")
                    continue
                }
                let gotos = (0..<(1 + random(3))).map { _ in random(12) == 0 ? -1 : random(count) }
                targets.append(gotos)
                let branches = gotos.enumerated().map { position, target in
                    position == gotos.count - 1
                        ? "{ else: true, goto: \(target < 0 ? "missing" : "s\(target)") }"
                        : "{ when: \"vars.x == \(position)\", goto: \(target < 0 ? "missing" : "s\(target)") }"
                }
                lines.append("  s\(index): { choice: [\(branches.joined(separator: ", "))] }")
            }
            // The definition, as a fixpoint.
            var canEnd = ends
            var changed = true
            while changed {
                changed = false
                for index in 0..<count
                where !canEnd.contains(index) && targets[index].contains(where: { $0 < 0 || canEnd.contains($0) }) {
                    canEnd.insert(index)
                    changed = true
                }
            }
            var reachable: Set<Int> = [0], queue = [0]
            while let index = queue.popLast() {
                for target in targets[index] where target >= 0 && reachable.insert(target).inserted {
                    queue.append(target)
                }
            }
            let expected = (0..<count).filter { !canEnd.contains($0) && reachable.contains($0) }.map { "s\($0)" }
            let text = lines.joined(separator: "\n") + "\n"
            let reported = specs(["demo/g\(round).yaml": text]).diagnostics.sorted
                .filter { $0.message.hasSuffix("every path from it loops") || $0.message.contains("is a dead end") }
                .compactMap { $0.message.split(separator: "`").dropFirst().first.map(String.init) }
            #expect(reported == expected, "round \(round):\n\(text)")
        }
    }
}
