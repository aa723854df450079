/// Schema definitions for a flow's states and transitions, following `FlowDecoder.decodeState`.
enum FlowStateSchema {
    typealias F = SchemaFragment

    static var definitions: [String: JSONValue] {
        [
            "state": .object([
                "description": .string("A state: exactly one of the keys request, input, choice, call, wait, end."),
                "oneOf": .array(FlowDecoder.stateKinds.map { .object(["$ref": .string("#/definitions/\($0)State")]) }),
            ]),
            "requestState": F.object(
                "One HTTP call, then ordered transitions on the response (first match wins).",
                [
                    (
                        "request",
                        F.ref("request", "The HTTP request: method, path or url, query, headers, json or form.")
                    ),
                    (
                        "session",
                        F.name(
                            "Send through this session (headers and refresh); `none` opts out of the flow's session.")
                    ),
                    (
                        "answers",
                        F.list(
                            "HTTP statuses that are this request's answer, not an expired token, e.g. [401] for a logout: the session's headers are still sent, but such a response never triggers the session's reactive refresh; it goes to `on`.",
                            of: F.integer("An HTTP status.", 100...599), minItems: 1)
                    ),
                    (
                        "on",
                        F.ref(
                            "transitions",
                            "Ordered transitions on the response; first match wins. No match ends the run as unhandled."
                        )
                    ),
                    (
                        "unreachable",
                        F.name("Optional: the state to go to when no response arrives (refused, timeout).")
                    ),
                ], required: ["request", "on"]),
            "request": F.object(
                "The HTTP request of a request state.",
                [
                    ("method", F.method),
                    (
                        "path",
                        F.typed(
                            ["string"], "Template appended to `defaults.base_url`; starts with `/`.",
                            ["pattern": .string(#"^(/|\$\{)"#)])
                    ),
                    ("url", F.template("A full address (template), instead of `path`.")),
                    (
                        "query",
                        F.map("Query parameters (templates).", of: F.template("Query parameter value (template)."))
                    ),
                    (
                        "headers",
                        F.map(
                            "Request headers (templates); they replace `defaults.headers` of the same name.",
                            of: F.template("Header value (template)."))
                    ),
                    (
                        "json",
                        F.anything(
                            "JSON body: any YAML; strings are templates, and a string that is exactly \"${expr}\" keeps the expression's type."
                        )
                    ),
                    (
                        "form",
                        F.map(
                            "application/x-www-form-urlencoded body (templates), instead of `json`.",
                            of: F.template("Form field value (template)."))
                    ),
                ],
                [
                    "oneOf": .array([F.requires("path"), F.requires("url")]),
                    "not": F.requires("json", "form"),
                ]),
            "inputState": F.object(
                "Asks for a fresh value of a declared input.",
                [
                    ("input", F.name("The declared input to ask for.")),
                    ("goto", F.name("The state after a valid value.")),
                    (
                        "invalid",
                        F.name(
                            "Optional: the state after an invalid value (the reason is in `input_error`); without it the run ends with an error."
                        )
                    ),
                ], required: ["input", "goto"]),
            "choiceState": F.object(
                "Branches on expressions, without I/O.",
                [
                    ("choice", F.ref("transitions", "Ordered transitions; first match wins."))
                ], required: ["choice"]),
            "callState": F.object(
                "Runs another flow as a sub-flow, then branches on how it ended.",
                [
                    ("call", F.name("The sub-flow's name, e.g. `repairminder.refresh`.")),
                    (
                        "with",
                        F.map(
                            "Sub-flow inputs as expressions (quoted: templates); the rest pass through by name.",
                            of: F.value("Input value (expression, or quoted template)."))
                    ),
                    (
                        "on",
                        F.ref(
                            "transitions",
                            "Transitions on `outcome`, `success`, `reason` and `outputs.X` of the sub-flow.")
                    ),
                ], required: ["call", "on"]),
            "waitState": F.object(
                "Lets time pass (instant on the virtual clock of scripted runs).",
                [
                    (
                        "wait",
                        F.typed(
                            ["string", "number"], "Duration literal (`16m`, `30s`, `1h`) or expression, in seconds.")
                    ),
                    ("goto", F.name("The state after the wait.")),
                ], required: ["wait", "goto"]),
            "endState": F.object(
                "Terminal state: an outcome, success or failure, a reason and outputs.",
                [
                    (
                        "end",
                        F.name(
                            "The outcome name, e.g. `authenticated`; `unhandled` and `error` are reserved.",
                            F.notOneOf(Array(Flow.reservedOutcomes)).objectValue ?? [:])
                    ),
                    ("success", F.boolean("Required (unless `skip: true`): whether this outcome is a success.")),
                    (
                        "skip",
                        F.boolean(
                            "`skip: true`: reaching this end means the promise could not be checked; the scenario is reported skipped with the reason."
                        )
                    ),
                    ("reason", F.template("Optional reason (template), e.g. \"Signed in as ${inputs.email}\".")),
                    (
                        "outputs",
                        F.map(
                            "Outputs as expressions (quoted: templates), read by a caller as `outputs.X`.",
                            of: F.value("Output value (expression, or quoted template)."))
                    ),
                ], required: ["end"], ["anyOf": .array([F.requires("success"), F.requires("skip")])]),
            "transitions": F.list(
                "Ordered transitions; first match wins.", of: .object(["$ref": .string("#/definitions/transition")])),
            "transition": F.object(
                "Exactly one of `when:` or `else: true`, then optional actions (set, store, forget), then `goto:`.",
                [
                    (
                        "when",
                        F.typed(["string", "boolean"], "Guard expression; must be boolean, e.g. `status == 200`.")
                    ),
                    ("else", F.constant(.bool(true), "`else: true` always matches; it must be the last transition.")),
                    (
                        "set",
                        F.map(
                            "Flow variables to set: a plain value is an expression, a quoted one a template.",
                            of: F.value("Variable value (expression, or quoted template)."),
                            ["propertyNames": F.variableName])
                    ),
                    (
                        "store",
                        F.map(
                            "Token-store keys to write in the flow's namespace (expressions; quoted: templates).",
                            of: F.value("Store value (expression, or quoted template)."))
                    ),
                    (
                        "forget",
                        .object([
                            "description": .string("Store keys to delete, or `all` to clear the flow's namespace."),
                            "anyOf": .array([
                                F.constant(.string("all"), "Clear the flow's namespace."),
                                F.list("Store keys to delete.", of: F.text("A store key.")),
                            ]),
                        ])
                    ),
                    ("goto", F.name("The next state.")),
                ], required: ["goto"], ["oneOf": .array([F.requires("when"), F.requires("else")])]),
        ]
    }
}
