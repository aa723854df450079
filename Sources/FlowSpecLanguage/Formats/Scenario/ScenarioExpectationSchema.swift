/// Schema definitions for a scenario's scripted exchanges and its expectations, following
/// `ScenarioDecoder.decodeExchange` and `decodeExpectation`.
enum ScenarioExpectationSchema {
    typealias F = SchemaFragment
    typealias Format = ScenarioFormat

    static var definitions: [String: JSONValue] {
        [
            "exchange": F.object(
                "One scripted request matcher and the response it gets.", Format.exchange,
                required: ["request", "response"]),
            "exchangeRequest": F.object("A request matcher: every key given must match.", Format.exchangeRequest),
            "exchangeResponse": F.object(
                "The scripted response, or `fail:` for no response at all.", Format.exchangeResponse,
                ["not": F.requires("json", "body")]),
            "expect": F.object(
                "Expectations; state at least one (usually `outcome`).", Format.expect, ["minProperties": .number(1)]),
            "requestCheck": F.object("Selects requests by `method`/`path`, then checks them.", Format.requestCheck),
        ]
    }

    static func stringMap(_ description: String) -> JSONValue { F.map(description, of: F.template("A value.")) }
    static func headerNames(_ description: String) -> JSONValue { F.list(description, of: F.text("A header name.")) }
    static func storeKeys(_ description: String) -> JSONValue {
        F.list(description, of: F.name("`namespace.key` or `namespace`."))
    }
}
