import Testing

@testable import FlowSpecLanguage

/// A large flow's states are decoded side by side (FlowDecoder.decodeStates); the flow and its messages must be what
/// decoding them in file order gives.
@Suite(.timeLimit(.minutes(2))) struct LargeFlowDecodingTests {
    /// `count` states in a chain; every 17th is not a state at all (it is broken), every 23rd has a misspelt key and
    /// a guard that does not parse (it loads, with messages).
    static func yaml(states count: Int) -> String {
        var lines = ["flow: big.chain", "start: s0", "states:"]
        for i in 0..<count {
            if i % 17 == 5 {
                lines.append("  s\(i): oops")
                continue
            }
            lines.append("  s\(i):")
            lines.append("    request: { method: GET, path: /s/\(i) }")
            if i % 23 == 7 { lines.append("    retyr: 1") }
            lines.append("    on:")
            lines.append("      - when: \(i % 23 == 7 ? "status ==" : "status == 200")")
            lines.append("        goto: \(i + 1 < count ? "s\(i + 1)" : "done")")
        }
        lines.append("  done: { end: ok, success: true }")
        return lines.joined(separator: "\n") + "\n"
    }

    @Test(arguments: [10, 64, 65, 300]) func statesAndMessagesComeInFileOrder(_ count: Int) throws {
        let root = try YAMLLoader.load(text: Self.yaml(states: count), file: "big.yaml").get()
        var d = Diagnostics()
        let flow = try #require(FlowDecoder.decode(root, file: "big.yaml", &d))
        let expectedBroken = (0..<count).filter { $0 % 17 == 5 }
        #expect(flow.stateOrder == (0..<count).filter { !expectedBroken.contains($0) }.map { "s\($0)" } + ["done"])
        #expect(flow.brokenStates == Set(expectedBroken.map { "s\($0)" }))
        let lines = d.items.map(\.location.line)
        #expect(!lines.isEmpty)
        #expect(lines == lines.sorted(), "messages in file order")
        #expect(
            d.items.filter { $0.message.contains("retyr") }.count
                == (0..<count).filter { $0 % 23 == 7 && $0 % 17 != 5 }.count)
        // The same states decoded one by one give the same messages.
        let statesNode = try #require(root["states"])
        let pairs = try #require(Fields.pairs(of: statesNode, what: "states", &d))
        var oneByOne = Diagnostics()
        for (ref, node) in pairs { _ = FlowDecoder.decodeState(ref, node, &oneByOne) }
        #expect(
            FlowDecoder.decodeStates(pairs).flatMap(\.1.items).map(\.description) == oneByOne.items.map(\.description))
    }
}

/// A large flow's checks run side by side (FlowChecker.check); their messages must be those of running them one
/// after the other, in the same order.
@Suite(.timeLimit(.minutes(2))) struct LargeFlowCheckingTests {
    @Test(arguments: [30, 65, 300]) func checksGiveTheMessagesOfCheckingInOrder(_ count: Int) throws {
        // Unknown states and sessions (references), bad expressions, a loop that cannot end and an unreachable state
        // (graph), a variable read before it is set (variables), a file name that does not match (name).
        var lines = ["flow: big.wrong-name", "start: s0", "session: nowhere", "states:"]
        for i in 0..<count {
            lines.append("  s\(i):")
            lines.append("    request: { method: GET, path: \"/s/${\(i % 11 == 3 ? "later" : "status")}\" }")
            lines.append("    on:")
            lines.append("      - when: \(i % 13 == 4 ? "len(1, 2) == 1" : "status == 200")")
            lines.append("        goto: \(i % 29 == 8 ? "missing\(i)" : i + 1 < count ? "s\(i + 1)" : "done")")
            if i % 31 == 9 { lines.append("        set: { later: 1 }") }
            lines.append("      - else: true")
            lines.append("        goto: \(i % 37 == 11 ? "s\(i)" : "done")")
        }
        lines.append("  loop_a: { wait: 1s, goto: loop_b }")
        lines.append("  loop_b: { wait: 1s, goto: loop_a }")
        lines.append("  done: { end: ok, success: true }")
        let root = try YAMLLoader.load(text: lines.joined(separator: "\n") + "\n", file: "flows/big/chain.yaml").get()
        let set = SpecSet(parsed: [("flows/big/chain.yaml", root)])
        let flow = try #require(set.flows["big.wrong-name"])
        var together = Diagnostics()
        FlowChecker.check(flow, in: set, into: &together)
        var inOrder = Diagnostics()
        FlowChecker.checkName(flow, &inOrder)
        FlowChecker.checkReferences(flow, set, &inOrder)
        FlowChecker.checkExpressions(flow, set, &inOrder)
        FlowChecker.checkGraph(flow, &inOrder)
        FlowChecker.checkVariables(flow, &inOrder)
        #expect(inOrder.items.count > 8, "every kind of check should find something")
        #expect(together.items.map(\.description) == inOrder.items.map(\.description))
    }
}

@Suite(.timeLimit(.minutes(5))) struct SideBySideMapTests {
    @Test func resultsComeBackInIndexOrder() {
        #expect(SideBySide.map(count: 0) { $0 } == [])
        #expect(SideBySide.map(count: 1) { $0 + 1 } == [1])
        // Uneven work, so later indices often finish first.
        let squares = SideBySide.map(count: 2_000) { index -> Int in
            var spin = 0
            for i in 0..<((2_000 - index) * 20) { spin &+= i }
            return index * index + (spin == -1 ? 1 : 0)
        }
        #expect(squares == (0..<2_000).map { $0 * $0 })
    }
}
