/// Schema definitions for a scenario's scripted exchanges and its expectations, following
/// `ScenarioDecoder.decodeExchange` and `decodeExpectation`.
enum ScenarioExpectationSchema {
    typealias F = SchemaFragment

    static var definitions: [String: JSONValue] {
        [
            "exchange": F.object("One scripted request matcher and the response it gets.", [
                ("request", F.ref("exchangeRequest", "What request this exchange answers, e.g. { method: POST, path: /api/auth/login }.")),
                ("response", F.ref("exchangeResponse", "What the backend answers, e.g. { status: 200, json: { … } }.")),
                ("times", F.integer("How many requests this exchange answers (default 1).", 1...10_000)),
                ("concurrent", F.boolean("`true`: hold the answers until all `times` requests arrived (they are in flight together).")),
            ], required: ["request", "response"]),
            "exchangeRequest": F.object("A request matcher: every key given must match.", [
                ("method", F.method),
                ("path", F.typed(["string"], "Must equal the request path, without its query string.", ["pattern": .string(#"^[^?]*$"#)])),
                ("query", stringMap("Query parameters that must be present with these values.")),
                ("headers", stringMap("Headers that must be present with these values (names case-insensitive).")),
                ("headers_absent", headerNames("Headers that must not be sent.")),
                ("json", F.anything("The body must be JSON containing this subset (objects: listed keys; arrays: same length, each a subset).")),
                ("form", stringMap("Form body subset.")),
            ]),
            "exchangeResponse": F.object("The scripted response, or `fail:` for no response at all.", [
                ("status", F.integer("HTTP status (default 200).", 100...599)),
                ("headers", stringMap("Response headers.")),
                ("json", F.anything("A JSON body (Content-Type: application/json is added).")),
                ("body", F.text("A raw text body, instead of `json`.")),
                ("fail", F.oneOfWords(["refused", "timeout"], "No response at all: `refused` or `timeout` (an infrastructure failure).")),
            ], ["not": F.requires("json", "body")]),
            "expect": F.object("Expectations; state at least one (usually `outcome`).", [
                ("outcome", F.name("The end state's outcome, or `unhandled` (no transition matched) or `error`.")),
                ("success", F.boolean("The end state's success flag.")),
                ("path", F.list("The exact list of states the main flow visited.", of: F.name("A state name."))),
                ("variables", F.map("Flow variables with these values.", of: F.anything("Expected value."))),
                ("outputs", F.map("End-state outputs with these values.", of: F.anything("Expected value."))),
                ("reason", F.text("Text the end reason contains.")),
                ("error", F.text("Text the unhandled/error message contains.")),
                ("store", F.map("`namespace.key: value` equalities on the token store.", of: F.anything("Expected value."),
                                ["propertyNames": .object(["pattern": .string(#"^[^.]+\..+$"#)])])),
                ("store_present", storeKeys("`namespace.key` names that must be in the store; `namespace` alone means any key.")),
                ("store_absent", storeKeys("`namespace.key` names that must not be in the store; `namespace` alone means it is empty.")),
                ("request_count", F.integer("Total number of requests sent.", 0...1_000_000)),
                ("at_most", F.map("For a `parallel:` step: at most this many copies may end with each outcome, e.g. `{ accepted: 1 }`.",
                                  of: F.integer("A number of copies.", 0...1000))),
                ("same_outputs", F.list("For a `parallel:` step: the copies that ended with each of these outputs all ended with the same value.",
                                        of: F.name("An output name."))),
                ("requests", F.list("Checks on requests, each selecting requests by method/path (neither: every request).",
                                    of: .object(["$ref": .string("#/definitions/requestCheck")]))),
            ], ["minProperties": .number(1)]),
            "requestCheck": F.object("Selects requests by `method`/`path`, then checks them.", [
                ("method", F.method),
                ("path", F.name("Select requests with this path.")),
                ("count", F.integer("How many requests must be selected (without it: at least one).", 0...1_000_000)),
                ("headers", stringMap("Headers every selected request has, with these values.")),
                ("headers_absent", headerNames("Headers no selected request has.")),
                ("json", F.anything("A JSON subset every selected request's body contains.")),
            ]),
        ]
    }

    static func stringMap(_ description: String) -> JSONValue { F.map(description, of: F.template("A value.")) }
    static func headerNames(_ description: String) -> JSONValue { F.list(description, of: F.text("A header name.")) }
    static func storeKeys(_ description: String) -> JSONValue { F.list(description, of: F.name("`namespace.key` or `namespace`.")) }
}
