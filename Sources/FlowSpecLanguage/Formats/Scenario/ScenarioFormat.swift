/// The scenario file format's one home: the keys each part of a scenario file takes, in the order messages list
/// them, with the schema of each. `ScenarioSchema` builds `flowspec schema scenario` from these lists and
/// `ScenarioDecoder` accepts exactly these keys, so the two cannot drift apart.
public enum ScenarioFormat {
    typealias F = SchemaFragment

    public static let topKeys = top.map(\.0)
    public static let stepKeys = (runStep + waitStep + relaunchStep + setStoreStep).map(\.0).uniqued()
    public static let expectKeys = expect.map(\.0)
    public static let exchangeKeys = exchange.map(\.0)
    public static let exchangeRequestKeys = exchangeRequest.map(\.0)
    public static let exchangeResponseKeys = exchangeResponse.map(\.0)
    public static let requestCheckKeys = requestCheck.map(\.0)

    static let top: [(String, JSONValue)] = [
        ("scenario", F.name("The scenario's name, shown in reports.")),
        ("tags", F.list("Tags for selecting scenarios, e.g. [repairminder, staff].", of: F.text("A tag."))),
        ("live", F.boolean("`true`: a real backend on the real clock; then no `exchanges` and no `clock`.")),
        ("flow", F.name("The one flow to run, e.g. `repairminder.staff-password-2fa` (or use `steps:`).")),
        ("steps", F.list("Steps sharing one token store and one clock: run, wait, relaunch, set_store.",
                         of: .object(["$ref": .string("#/definitions/step")]), minItems: 1)),
        ("inputs", F.ref("inputs", "Input values by name: a value, a list of successive values, or `{ command: … }`.")),
        ("store", F.ref("store", "Initial token store: namespace → key → value (`staff.access_token: …` is shorthand).")),
        ("vars", F.map("Run variables; they override --vars-file and --var.", of: F.anything("A run variable's value."))),
        ("clock", F.typed(["number"], "Virtual clock start in Unix seconds (default \(JSONValue.format(VirtualTime.defaultStart))); scripted scenarios only.")),
        ("exchanges", F.list("The scripted backend: request matchers and their responses.", of: .object(["$ref": .string("#/definitions/exchange")]))),
        ("exchange_order", F.oneOfWords(["strict", "any"], "`strict` (default): exchanges are taken in order; `any`: the first unused one that matches.")),
        ("expect", F.ref("expect", "Expectations; with `steps:`, checked after the last step.")),
    ]

    static let runStep: [(String, JSONValue)] = [
        ("run", F.name("The flow to run.")),
        ("inputs", F.ref("inputs", "Inputs for this step, added to the scenario's `inputs`.")),
        ("expect", F.ref("expect", "What this run must end with.")),
        ("parallel", F.integer("Run this many copies of the flow at once in one session; each must meet `expect`.", 1...1000)),
    ]

    static let waitStep: [(String, JSONValue)] = [
        ("wait", .object([
            "description": .string("A duration such as `16m`, `30s` or `1h`, or seconds."),
            "anyOf": .array([.object(["type": .string("number"), "minimum": .number(0)]), .object(["type": .string("string")])]),
        ])),
    ]

    static let relaunchStep: [(String, JSONValue)] = [
        ("relaunch", F.constant(.bool(true), "Write `relaunch: true`.")),
    ]

    static let setStoreStep: [(String, JSONValue)] = [
        ("set_store", F.ref("store", "namespace → key → value (`staff.access_token: …` is shorthand).")),
    ]

    static let exchange: [(String, JSONValue)] = [
        ("request", F.ref("exchangeRequest", "What request this exchange answers, e.g. { method: POST, path: /api/auth/login }.")),
        ("response", F.ref("exchangeResponse", "What the backend answers, e.g. { status: 200, json: { … } }.")),
        ("times", F.integer("How many requests this exchange answers (default 1).", 1...10_000)),
        ("concurrent", F.boolean("`true`: hold the answers until all `times` requests arrived (they are in flight together).")),
    ]

    static let expect: [(String, JSONValue)] = [
        ("outcome", F.name("The end state's outcome, or `unhandled` (no transition matched) or `error`.")),
        ("success", F.boolean("The end state's success flag.")),
        ("path", F.list("The exact list of states the main flow visited.", of: F.name("A state name."))),
        ("variables", F.map("Flow variables with these values.", of: F.anything("Expected value."))),
        ("outputs", F.map("End-state outputs with these values.", of: F.anything("Expected value."))),
        ("reason", F.text("Text the end reason contains.")),
        ("error", F.text("Text the unhandled/error message contains.")),
        ("store", F.map("`namespace.key: value` equalities on the token store.", of: F.anything("Expected value."),
                        ["propertyNames": .object(["pattern": .string(#"^[^.]+\..+$"#)])])),
        ("store_present", ScenarioExpectationSchema.storeKeys("`namespace.key` names that must be in the store; `namespace` alone means any key.")),
        ("store_absent", ScenarioExpectationSchema.storeKeys("`namespace.key` names that must not be in the store; `namespace` alone means it is empty.")),
        ("request_count", F.integer("Total number of requests sent.", 0...1_000_000)),
        ("at_most", F.map("For a `parallel:` step: at most this many copies may end with each outcome, e.g. `{ accepted: 1 }`.",
                          of: F.integer("A number of copies.", 0...1000))),
        ("same_outputs", F.list("For a `parallel:` step: the copies that ended with each of these outputs all ended with the same value.",
                                of: F.name("An output name."))),
        ("requests", F.list("Checks on requests, each selecting requests by method/path (neither: every request).",
                            of: .object(["$ref": .string("#/definitions/requestCheck")]))),
    ]

    static let exchangeRequest: [(String, JSONValue)] = [
        ("method", F.method),
        ("path", F.typed(["string"], "Must equal the request path, without its query string.", ["pattern": .string(#"^[^?]*$"#)])),
        ("query", ScenarioExpectationSchema.stringMap("Query parameters that must be present with these values.")),
        ("headers", ScenarioExpectationSchema.stringMap("Headers that must be present with these values (names case-insensitive).")),
        ("headers_absent", ScenarioExpectationSchema.headerNames("Headers that must not be sent.")),
        ("json", F.anything("The body must be JSON containing this subset (objects: listed keys; arrays: same length, each a subset).")),
        ("form", ScenarioExpectationSchema.stringMap("Form body subset.")),
    ]

    static let exchangeResponse: [(String, JSONValue)] = [
        ("status", F.integer("HTTP status (default 200).", 100...599)),
        ("headers", ScenarioExpectationSchema.stringMap("Response headers.")),
        ("json", F.anything("A JSON body (Content-Type: application/json is added).")),
        ("body", F.text("A raw text body, instead of `json`.")),
        ("fail", F.oneOfWords(["refused", "timeout"], "No response at all: `refused` or `timeout` (an infrastructure failure).")),
    ]

    static let requestCheck: [(String, JSONValue)] = [
        ("method", F.method),
        ("path", F.name("Select requests with this path.")),
        ("count", F.integer("How many requests must be selected (without it: at least one).", 0...1_000_000)),
        ("headers", ScenarioExpectationSchema.stringMap("Headers every selected request has, with these values.")),
        ("headers_absent", ScenarioExpectationSchema.headerNames("Headers no selected request has.")),
        ("json", F.anything("A JSON subset every selected request's body contains.")),
    ]
}

extension Array where Element: Hashable {
    /// The elements in order, each kept the first time it appears.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
