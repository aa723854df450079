/// The scenario file format's one home: the keys each part of a scenario file takes, in the order messages list
/// them, with the schema of each (the keys themselves: `ScenarioKeys.swift`). `ScenarioSchema` builds
/// `flowspec schema scenario` from these lists, `ScenarioDecoder` accepts exactly these keys and the scenario
/// generator writes them, so the three cannot drift apart.
package enum ScenarioFormat {
    typealias F = SchemaFragment

    package static let topKeys = top.map(\.0)
    package static let stepKeys = (runStep + waitStep + relaunchStep + setStoreStep + commandStep).map(\.0).uniqued()
    package static let expectKeys = expect.map(\.0)
    package static let exchangeKeys = exchange.map(\.0)
    package static let exchangeRequestKeys = exchangeRequest.map(\.0)
    package static let exchangeResponseKeys = exchangeResponse.map(\.0)
    package static let requestCheckKeys = requestCheck.map(\.0)

    static let top: [(String, JSONValue)] = Top.allCases.map { ($0.rawValue, $0.schema) }

    static let runStep: [(String, JSONValue)] = [
        ("run", F.name("The flow to run.")),
        ("inputs", F.ref("inputs", "Inputs for this step, added to the scenario's `inputs`.")),
        ("expect", F.ref("expect", "What this run must end with.")),
        (
            "parallel",
            F.integer("Run this many copies of the flow at once in one session; each must meet `expect`.", 1...1000)
        ),
    ]

    static let waitStep: [(String, JSONValue)] = [
        (
            "wait",
            .object([
                "description": .string(
                    "A duration such as `16m`, `30s` or `1h`, or seconds; or an expression of seconds over `now` and `vars`, evaluated when the step starts (e.g. `30 - now % 30`, to the next TOTP window)."
                ),
                "anyOf": .array([
                    .object(["type": .string("number"), "minimum": .number(0)]), .object(["type": .string("string")]),
                ]),
            ])
        )
    ]

    static let relaunchStep: [(String, JSONValue)] = [
        ("relaunch", F.constant(.bool(true), "Write `relaunch: true`."))
    ]

    static let setStoreStep: [(String, JSONValue)] = [
        ("set_store", F.ref("store", "namespace → key → value (`staff.access_token: …` is shorthand)."))
    ]

    static let commandStep: [(String, JSONValue)] = [
        (
            "command",
            F.text(
                "Live scenarios only: a shell command run for what it does to the backend's world between steps (an admin deactivating the account, a password changed in the database), as `/bin/sh -c`, with the non-secret inputs handed out so far in its environment; text with `${…}` over `vars` and `now`. A non-zero exit fails the scenario; its output is not shown."
            )
        )
    ]

    static let exchange: [(String, JSONValue)] = Exchange.allCases.map { ($0.rawValue, $0.schema) }

    static let expect: [(String, JSONValue)] = Expect.allCases.map { ($0.rawValue, $0.schema) }

    static let exchangeRequest: [(String, JSONValue)] = ExchangeRequest.allCases.map { ($0.rawValue, $0.schema) }

    static let exchangeResponse: [(String, JSONValue)] = ExchangeResponse.allCases.map { ($0.rawValue, $0.schema) }

    static let requestCheck: [(String, JSONValue)] = RequestCheck.allCases.map { ($0.rawValue, $0.schema) }
}

extension Array where Element: Hashable {
    /// The elements in order, each kept the first time it appears.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
