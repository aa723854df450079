/// The JSON Schema of the files under `flows/`: a probe file (top-level `probe:`), a flow (top-level `flow:`) or
/// a session (top-level `session:` without `flow:`), told apart exactly as `SpecSet.add` does. One schema covers both so a single
/// `flows/**/*.yaml` editor mapping is enough; a file still being started is treated as a flow.
package enum FlowSchema {
    /// `probePromises`: the probe catalogue's promises (`ProbeCatalogue.promiseSchemas`).
    package static func document(probePromises: [(String, JSONValue)]) -> JSONValue {
        SchemaFragment.document(
            title: "FlowSpec flow, session or probe file",
            description:
                "A FlowSpec flow (top-level `flow:`), session (top-level `session:`) or probe file (top-level `probe:`). See docs/language.md and docs/probe.md.",
            root: [
                "if": SchemaFragment.requires("probe"),
                "then": .object(["$ref": .string("#/definitions/probeFile")]),
                "else": .object([
                    "if": .object(["required": .array([.string("session")]), "not": SchemaFragment.requires("flow")]),
                    "then": .object(["$ref": .string("#/definitions/sessionFile")]),
                    "else": .object(["$ref": .string("#/definitions/flowFile")]),
                ]),
            ],
            definitions:
                flowDefinitions
                .merging(FlowStateSchema.definitions) { a, _ in a }
                .merging(SessionSchema.definitions) { a, _ in a }
                .merging(ProbeSchema.definitions(promises: probePromises)) { a, _ in a })
    }

    typealias F = SchemaFragment

    static var flowDefinitions: [String: JSONValue] {
        [
            "flowFile": F.object(
                "A flow: a YAML state machine for one client-side auth procedure.",
                [
                    (
                        "flow",
                        F.name(
                            "The flow's name, `<system>.<file stem>`, e.g. `repairminder.me` for flows/repairminder/me.yaml."
                        )
                    ),
                    ("title", F.text("One line for humans.")),
                    (
                        "namespace",
                        F.name(
                            "Token-store namespace for `store.*` reads and `store:` writes; defaults to the session's namespace, else `default`."
                        )
                    ),
                    ("session", F.name("Default session (by name) for every request state of this flow.")),
                    (
                        "inputs",
                        F.map(
                            "Declared inputs, read with `inputs.NAME`.",
                            of: F.ref("input", "A declared input; empty for a plain string input."))
                    ),
                    ("defaults", F.ref("defaults", "`base_url` and `headers` applied to every request.")),
                    (
                        "variables",
                        F.map(
                            "Flow variables with initial values: a plain value is an expression, a quoted one a template.",
                            of: F.value("Initial value (expression, or quoted template)."),
                            ["propertyNames": F.notOneOf(reservedRoots)])
                    ),
                    (
                        "max_steps",
                        F.integer(
                            "Step budget for one run of this flow (default \(Flow.defaultMaxSteps)).", 1...100_000)
                    ),
                    ("start", F.name("The first state.")),
                    (
                        "states",
                        F.typed(
                            ["object"],
                            "Map of state name → state. Each state has exactly one kind: request, input, choice, call, wait or end.",
                            [
                                "additionalProperties": F.ref(
                                    "state", "A state: exactly one of the keys request, input, choice, call, wait, end."
                                ),
                                "minProperties": .number(1),
                            ])
                    ),
                ], required: ["flow", "start", "states"]),
            "input": F.orEmpty(
                F.object(
                    "A declared input; leave it empty for a plain string input.",
                    [
                        (
                            "type",
                            F.oneOfWords(
                                InputDecl.Kind.allCases.map(\.rawValue),
                                "`string` (any text, default), `email` (local@domain), `phone` (E.164: + then 2–15 digits), `code` (a one-time code: masked like a secret, replayed by probes; its shape is `pattern:` when given, otherwise letters and digits in groups joined by `-`, e.g. 123456 or ABCD-EFGH)."
                            )
                        ),
                        ("pattern", F.name("A regular expression the whole value must match.")),
                        ("secret", F.boolean("`true`: the value is masked everywhere (console, reports, errors).")),
                        ("prompt", F.text("Text shown when FlowSpec asks a person for the value.")),
                    ])),
            "defaults": F.object(
                "Applied to every request of the flow.",
                [
                    (
                        "base_url",
                        F.template(
                            "Template for the base URL request paths are appended to, e.g. \"${vars.repairminder_url}\"."
                        )
                    ),
                    (
                        "headers",
                        F.map(
                            "Headers added to every request unless the request sets the same header (templates).",
                            of: F.template("Header value (template)."))
                    ),
                ]),
        ]
    }

    /// Expression roots (`status`, `body`, `store`, …) and `it`: not usable as variable names.
    static var reservedRoots: [String] { Root.reservedNames }
}
