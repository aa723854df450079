/// The JSON Schema of scenario files (top-level `scenario:`). Its property lists are `ScenarioFormat`'s, the ones
/// `ScenarioDecoder` (FlowSpecScenarios) accepts, so the schema and the decoder cannot disagree on a key.
package enum ScenarioSchema {
    typealias F = SchemaFragment
    typealias Format = ScenarioFormat

    package static var document: JSONValue {
        SchemaFragment.document(
            title: "FlowSpec scenario",
            description:
                "A FlowSpec scenario: one flow or a sequence of steps, and what must happen. See docs/scenarios.md.",
            root: ["$ref": .string("#/definitions/scenarioFile")],
            definitions: definitions.merging(ScenarioExpectationSchema.definitions) { a, _ in a })
    }

    static var definitions: [String: JSONValue] {
        [
            "scenarioFile": F.object(
                "A scenario: one flow (`flow:`) or a sequence of steps (`steps:`), and expectations.", Format.top,
                required: ["scenario"],
                [
                    "oneOf": .array([F.requires("flow"), F.requires("steps")]),
                    // With `flow:`, the scenario's own `expect:` is its only expectation.
                    "dependencies": .object(["flow": .array([.string("expect")])]),
                    "if": .object([
                        "required": .array([.string("live")]),
                        "properties": .object(["live": .object(["const": .bool(true)])]),
                    ]),
                    "then": .object(["properties": .object(["exchanges": .bool(false), "clock": .bool(false)])]),
                ]),
            "step": .object([
                "description": .string("A step: exactly one of run, wait, relaunch, set_store."),
                "oneOf": .array(
                    ["runStep", "waitStep", "relaunchStep", "setStoreStep", "commandStep"].map {
                        .object(["$ref": .string("#/definitions/\($0)")])
                    }),
            ]),
            "runStep": F.object(
                "Runs a flow (or `parallel` copies of it in one session).", Format.runStep, required: ["run"]),
            "waitStep": F.object("Advances the clock (virtual in scripted runs).", Format.waitStep, required: ["wait"]),
            "relaunchStep": F.object(
                "The app restarts: the store survives (round-tripped through JSON), nothing else does.",
                Format.relaunchStep, required: ["relaunch"]),
            "setStoreStep": F.object(
                "Writes keys into the token store between steps; `null` deletes a key.", Format.setStoreStep,
                required: ["set_store"]),
            "commandStep": F.object(
                "Runs a shell command for its effect on the backend's world (live scenarios only).", Format.commandStep,
                required: ["command"]),
            "inputs": F.map(
                "Input values by name.",
                of: .object([
                    "description": .string(
                        "A value (template over `vars.*`), a list of successive values, or `{ command: \"…\" }`."),
                    "anyOf": .array([
                        .object(["type": .array(F.scalarTypes)]),
                        .object(["type": .string("array"), "items": .object(["type": .array(F.scalarTypes)])]),
                        F.object(
                            "Take the value from a shell command's output.",
                            [
                                (
                                    "command",
                                    F.template(
                                        "Shell command (template over `vars.*`) whose trimmed output is the value.")
                                )
                            ], required: ["command"]),
                    ]),
                ])),
            "store": F.map(
                "Token store: namespace → key → value.",
                of: F.typed(
                    ["object"], "A namespace's keys and values.",
                    ["additionalProperties": F.anything("A stored value.")]),
                [
                    // `staff.access_token: value` is shorthand for `staff: { access_token: value }`.
                    "patternProperties": .object([
                        #"\."#: F.anything("`namespace.key` shorthand: the value of that key.")
                    ])
                ]),
        ]
    }
}
