/// The keys of each part of a scenario file, in the order messages list them, each with its schema. The cases are
/// the one spelling of a key: `ScenarioFormat` lists them for the decoder and the schema, and the scenario
/// generator (FlowSpecScaffold) writes them, so a key renamed here is renamed everywhere or does not compile.
/// A key prints as it is written in YAML (`"\(ScenarioFormat.Top.exchangeOrder)"` is `exchange_order`).
extension ScenarioFormat {
    /// A top-level key of a scenario file.
    package enum Top: String, CaseIterable, Sendable, CustomStringConvertible {
        case scenario, tags, live, flow, steps, inputs, store, vars, clock, exchanges, exchangeOrder = "exchange_order",
            expect
        package var description: String { rawValue }

        var schema: JSONValue {
            switch self {
            case .scenario: F.name("The scenario's name, shown in reports.")
            case .tags: F.list("Tags for selecting scenarios, e.g. [repairminder, staff].", of: F.text("A tag."))
            case .live: F.boolean("`true`: a real backend on the real clock; then no `exchanges` and no `clock`.")
            case .flow: F.name("The one flow to run, e.g. `repairminder.staff-password-2fa` (or use `steps:`).")
            case .steps:
                F.list(
                    "Steps sharing one token store and one clock: run, wait, relaunch, set_store.",
                    of: .object(["$ref": .string("#/definitions/step")]), minItems: 1)
            case .inputs:
                F.ref("inputs", "Input values by name: a value, a list of successive values, or `{ command: … }`.")
            case .store:
                F.ref("store", "Initial token store: namespace → key → value (`staff.access_token: …` is shorthand).")
            case .vars:
                F.map("Run variables; they override --vars-file and --var.", of: F.anything("A run variable's value."))
            case .clock:
                F.typed(
                    ["number"],
                    "Virtual clock start in Unix seconds (default \(JSONValue.format(VirtualTime.defaultStart))); scripted scenarios only."
                )
            case .exchanges:
                F.list(
                    "The scripted backend: request matchers and their responses.",
                    of: .object(["$ref": .string("#/definitions/exchange")]))
            case .exchangeOrder:
                F.oneOfWords(
                    ["strict", "any"],
                    "`strict` (default): exchanges are taken in order; `any`: the first unused one that matches.")
            case .expect: F.ref("expect", "Expectations; with `steps:`, checked after the last step.")
            }
        }
    }

    /// A key of one scripted exchange.
    package enum Exchange: String, CaseIterable, Sendable, CustomStringConvertible {
        case request, response, times, concurrent
        package var description: String { rawValue }

        var schema: JSONValue {
            switch self {
            case .request:
                F.ref(
                    "exchangeRequest",
                    "What request this exchange answers, e.g. { method: POST, path: /api/auth/login }.")
            case .response: F.ref("exchangeResponse", "What the backend answers, e.g. { status: 200, json: { … } }.")
            case .times: F.integer("How many requests this exchange answers (default 1).", 1...10_000)
            case .concurrent:
                F.boolean("`true`: hold the answers until all `times` requests arrived (they are in flight together).")
            }
        }
    }

    /// A key of an exchange's `request:` matcher.
    package enum ExchangeRequest: String, CaseIterable, Sendable, CustomStringConvertible {
        case method, path, query, headers, headersAbsent = "headers_absent", json, form
        package var description: String { rawValue }

        var schema: JSONValue {
            switch self {
            case .method: F.method
            case .path:
                F.typed(
                    ["string"], "Must equal the request path, without its query string.",
                    ["pattern": .string(#"^[^?]*$"#)])
            case .query: ScenarioExpectationSchema.stringMap("Query parameters that must be present with these values.")
            case .headers:
                ScenarioExpectationSchema.stringMap(
                    "Headers that must be present with these values (names case-insensitive).")
            case .headersAbsent: ScenarioExpectationSchema.headerNames("Headers that must not be sent.")
            case .json:
                F.anything(
                    "The body must be JSON containing this subset (objects: listed keys; arrays: same length, each a subset)."
                )
            case .form: ScenarioExpectationSchema.stringMap("Form body subset.")
            }
        }
    }

    /// A key of an exchange's scripted `response:`.
    package enum ExchangeResponse: String, CaseIterable, Sendable, CustomStringConvertible {
        case status, headers, json, body, fail
        package var description: String { rawValue }

        var schema: JSONValue {
            switch self {
            case .status: F.integer("HTTP status (default 200).", 100...599)
            case .headers: ScenarioExpectationSchema.stringMap("Response headers.")
            case .json: F.anything("A JSON body (Content-Type: application/json is added).")
            case .body: F.text("A raw text body, instead of `json`.")
            case .fail:
                F.oneOfWords(
                    ["refused", "timeout"], "No response at all: `refused` or `timeout` (an infrastructure failure).")
            }
        }
    }

    /// A key of `expect:`.
    package enum Expect: String, CaseIterable, Sendable, CustomStringConvertible {
        case outcome, success, path, variables, outputs, reason, error, store, storePresent = "store_present",
            storeAbsent = "store_absent", requestCount = "request_count", atMost = "at_most", sameOutputs =
            "same_outputs", requests
        package var description: String { rawValue }

        var schema: JSONValue {
            switch self {
            case .outcome: F.name("The end state's outcome, or `unhandled` (no transition matched) or `error`.")
            case .success: F.boolean("The end state's success flag.")
            case .path: F.list("The exact list of states the main flow visited.", of: F.name("A state name."))
            case .variables:
                F.map(
                    "Flow variables with these values.",
                    of: F.anything(
                        "Expected value. A string with `${…}` is rendered over run variables and `now` when checked (`${vars.qa_username}`); `$${` is a literal `${`."
                    ))
            case .outputs:
                F.map(
                    "End-state outputs with these values.",
                    of: F.anything(
                        "Expected value. A string with `${…}` is rendered over run variables and `now` when checked (`${vars.qa_username}`); `$${` is a literal `${`."
                    ))
            case .reason: F.text("Text the end reason contains; `${…}` is rendered over run variables and `now`.")
            case .error:
                F.text("Text the unhandled/error message contains; `${…}` is rendered over run variables and `now`.")
            case .store:
                F.map(
                    "`namespace.key: value` equalities on the token store.",
                    of: F.anything(
                        "Expected value. A string with `${…}` is rendered over run variables and `now` when checked (`${vars.qa_username}`); `$${` is a literal `${`."
                    ),
                    ["propertyNames": .object(["pattern": .string(#"^[^.]+\..+$"#)])])
            case .storePresent:
                ScenarioExpectationSchema.storeKeys(
                    "`namespace.key` names that must be in the store; `namespace` alone means any key.")
            case .storeAbsent:
                ScenarioExpectationSchema.storeKeys(
                    "`namespace.key` names that must not be in the store; `namespace` alone means it is empty.")
            case .requestCount: F.integer("Total number of requests sent.", 0...1_000_000)
            case .atMost:
                F.map(
                    "For a `parallel:` step: at most this many copies may end with each outcome, e.g. `{ accepted: 1 }`.",
                    of: F.integer("A number of copies.", 0...1000))
            case .sameOutputs:
                F.list(
                    "For a `parallel:` step: the copies that ended with each of these outputs all ended with the same value.",
                    of: F.name("An output name."))
            case .requests:
                F.list(
                    "Checks on requests, each selecting requests by method/path (neither: every request).",
                    of: .object(["$ref": .string("#/definitions/requestCheck")]))
            }
        }
    }

    /// A key of one `expect: requests:` check.
    package enum RequestCheck: String, CaseIterable, Sendable, CustomStringConvertible {
        case method, path, count, headers, headersAbsent = "headers_absent", json
        package var description: String { rawValue }

        var schema: JSONValue {
            switch self {
            case .method: F.method
            case .path: F.name("Select requests with this path.")
            case .count: F.integer("How many requests must be selected (without it: at least one).", 0...1_000_000)
            case .headers: ScenarioExpectationSchema.stringMap("Headers every selected request has, with these values.")
            case .headersAbsent: ScenarioExpectationSchema.headerNames("Headers no selected request has.")
            case .json: F.anything("A JSON subset every selected request's body contains.")
            }
        }
    }
}
