/// Schema definitions for a probe file (`probe:`), following the probe module's `ProbeDecoder`: the file's own
/// keys here, the promises from the probe module's catalogue (this module cannot see it), passed in.
package enum ProbeSchema {
    typealias F = SchemaFragment

    /// The schema of a promise whose options are `options` (beyond `source` and `requires`): a source alone, or a
    /// mapping with the source and the options.
    package static func promise(_ description: String, _ options: [(String, JSONValue)], requiredOptions: [String] = [])
        -> JSONValue
    {
        let source = F.text("Where the backend promises this: its documentation (section) or a standard.")
        let requires = F.name(
            "Optional: a run variable that must be `true` for the promise to be checked (the documents leave it to the backend)."
        )
        let mapping = F.object(
            description, [("source", source), ("requires", requires)] + options, required: ["source"] + requiredOptions)
        guard requiredOptions.isEmpty else { return mapping }
        return .object([
            "description": .string(description), "oneOf": .array([F.text("Where the backend promises it."), mapping]),
        ])
    }

    /// `promises`: each promise name with its schema (`promise(_:_:)`), from the probe catalogue.
    static func definitions(promises: [(String, JSONValue)]) -> [String: JSONValue] {
        let inputs = F.map(
            "Its inputs, as in scenarios: text templates over run variables, a list, or `{ command: … }`.",
            of: F.anything("A value, a list of successive values, or `{ command: \"…\" }`."))
        return [
            "probeFile": F.object(
                "A probe file: what `flowspec probe` needs to attack one session (docs/probe.md).",
                [
                    ("probe", F.name("The session it probes, e.g. `repairminder.staff`.")),
                    ("title", F.text("One line for humans.")),
                    (
                        "login",
                        F.object(
                            "How probes log in: a flow that ends with success and the tokens in the store.",
                            [
                                ("flow", F.name("The login flow.")),
                                ("inputs", inputs),
                                (
                                    "interval",
                                    F.template(
                                        "Optional: the least time between two logins (seconds or a template over run variables)."
                                    )
                                ),
                            ], required: ["flow"])
                    ),
                    (
                        "protected",
                        F.list(
                            "Flows of this session that must refuse a bad token.", of: F.name("A flow name."),
                            minItems: 1)
                    ),
                    (
                        "logout",
                        .object([
                            "description": .string(
                                "Optional: the flow that logs out; needed by `logout_revokes` and `access_after_logout`."
                            ),
                            "oneOf": .array([
                                F.name("The logout flow."),
                                F.object(
                                    "The logout flow and what its answer is.",
                                    [
                                        ("flow", F.name("The logout flow.")),
                                        (
                                            "answers",
                                            F.list(
                                                "The statuses of the logout request that mean it logged out (default: any 2xx).",
                                                of: F.integer("A status.", 200...499))
                                        ),
                                    ], required: ["flow"]),
                            ]),
                        ])
                    ),
                    (
                        "refused",
                        F.list(
                            "Optional: the documented refusal statuses (default: any 4xx).",
                            of: F.integer("A 4xx status.", 400...499))
                    ),
                    (
                        "refresh_token_key",
                        F.name("Optional: the store key of the refresh token (default `refresh_token`).")
                    ),
                    ("promises", F.object("What the backend promises, each with its source.", promises)),
                ], required: ["probe", "login", "protected"]),
            "probeLogin": F.object(
                "Another login: a login flow of this session and its inputs.",
                [
                    ("flow", F.name("The login flow.")),
                    ("inputs", inputs),
                ], required: ["flow"]),
            "probeAccount": F.object(
                "Another account: the inputs the probe file's login flow logs it in with.", [("inputs", inputs)],
                required: ["inputs"]),
        ]
    }
}
