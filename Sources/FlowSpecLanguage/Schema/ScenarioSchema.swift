/// The JSON Schema of scenario files (top-level `scenario:`), following `ScenarioDecoder` in FlowSpecScenarios.
/// It lives beside the flow schema because both describe file formats and share their building blocks;
/// `ScenarioSchemaTests` (FlowSpecScenariosTests) holds its key lists equal to the decoder's.
public enum ScenarioSchema {
    typealias F = SchemaFragment

    public static var document: JSONValue {
        SchemaFragment.document(
            title: "FlowSpec scenario",
            description: "A FlowSpec scenario: one flow or a sequence of steps, and what must happen. See docs/scenarios.md.",
            root: ["$ref": .string("#/definitions/scenarioFile")],
            definitions: definitions.merging(ScenarioExpectationSchema.definitions) { a, _ in a })
    }

    static var definitions: [String: JSONValue] {
        [
            "scenarioFile": F.object("A scenario: one flow (`flow:`) or a sequence of steps (`steps:`), and expectations.", [
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
            ], required: ["scenario"], [
                "oneOf": .array([F.requires("flow"), F.requires("steps")]),
                // With `flow:`, the scenario's own `expect:` is its only expectation.
                "dependencies": .object(["flow": .array([.string("expect")])]),
                "if": .object(["required": .array([.string("live")]), "properties": .object(["live": .object(["const": .bool(true)])])]),
                "then": .object(["properties": .object(["exchanges": .bool(false), "clock": .bool(false)])]),
            ]),
            "step": .object([
                "description": .string("A step: exactly one of run, wait, relaunch, set_store."),
                "oneOf": .array(["runStep", "waitStep", "relaunchStep", "setStoreStep"].map { .object(["$ref": .string("#/definitions/\($0)")]) }),
            ]),
            "runStep": F.object("Runs a flow (or `parallel` copies of it in one session).", [
                ("run", F.name("The flow to run.")),
                ("inputs", F.ref("inputs", "Inputs for this step, added to the scenario's `inputs`.")),
                ("expect", F.ref("expect", "What this run must end with.")),
                ("parallel", F.integer("Run this many copies of the flow at once in one session; each must meet `expect`.", 1...1000)),
            ], required: ["run"]),
            "waitStep": F.object("Advances the clock (virtual in scripted runs).", [
                ("wait", .object([
                    "description": .string("A duration such as `16m`, `30s` or `1h`, or seconds."),
                    "anyOf": .array([.object(["type": .string("number"), "minimum": .number(0)]), .object(["type": .string("string")])]),
                ])),
            ], required: ["wait"]),
            "relaunchStep": F.object("The app restarts: the store survives (round-tripped through JSON), nothing else does.", [
                ("relaunch", F.constant(.bool(true), "Write `relaunch: true`.")),
            ], required: ["relaunch"]),
            "setStoreStep": F.object("Writes keys into the token store between steps; `null` deletes a key.", [
                ("set_store", F.ref("store", "namespace → key → value (`staff.access_token: …` is shorthand).")),
            ], required: ["set_store"]),
            "inputs": F.map("Input values by name.", of: .object([
                "description": .string("A value (template over `vars.*`), a list of successive values, or `{ command: \"…\" }`."),
                "anyOf": .array([
                    .object(["type": .array(F.scalarTypes)]),
                    .object(["type": .string("array"), "items": .object(["type": .array(F.scalarTypes)])]),
                    F.object("Take the value from a shell command's output.", [
                        ("command", F.template("Shell command (template over `vars.*`) whose trimmed output is the value.")),
                    ], required: ["command"]),
                ]),
            ])),
            "store": F.map("Token store: namespace → key → value.", of: F.typed(["object"], "A namespace's keys and values.", ["additionalProperties": F.anything("A stored value.")]), [
                // `staff.access_token: value` is shorthand for `staff: { access_token: value }`.
                "patternProperties": .object([#"\."#: F.anything("`namespace.key` shorthand: the value of that key.")]),
            ]),
        ]
    }
}
