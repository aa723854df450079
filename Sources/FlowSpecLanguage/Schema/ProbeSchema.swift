/// Schema definitions for a probe file (`probe:`), following the probe module's `ProbeDecoder`.
/// The promise names are listed here because this module cannot see the probe module; a test in
/// FlowSpecProbeTests keeps them equal to `ProbeKind.allCases`.
public enum ProbeSchema {
    typealias F = SchemaFragment

    public static let promiseNames = ["rotation", "reuse_detection", "logout_revokes", "signature", "isolation", "garbage", "expiry",
                                      "atomic_rotation", "one_time_codes"]

    static var definitions: [String: JSONValue] {
        let source = F.text("Where the backend promises this: its documentation (section) or a standard.")
        let requires = F.name("Optional: a run variable that must be `true` for the promise to be checked (the documents leave it to the backend).")
        func promise(_ description: String, _ options: [(String, JSONValue)] = []) -> JSONValue {
            .object(["description": .string(description), "oneOf": .array([
                F.text("Where the backend promises it."),
                F.object(description, [("source", source), ("requires", requires)] + options, required: ["source"]),
            ])])
        }
        let grace = F.oneOfWords(["none", "parent_of_active"], "`parent_of_active`: the token just rotated out may be reused (GoTrue).")
        return [
            "probeFile": F.object("A probe file: what `flowspec probe` needs to attack one session (docs/probe.md).", [
                ("probe", F.name("The session it probes, e.g. `repairminder.staff`.")),
                ("title", F.text("One line for humans.")),
                ("login", F.object("How probes log in: a flow that ends with success and the tokens in the store.", [
                    ("flow", F.name("The login flow.")),
                    ("inputs", F.map("Its inputs, as in scenarios: text templates over run variables, a list, or `{ command: … }`.",
                                     of: F.anything("A value, a list of successive values, or `{ command: \"…\" }`."))),
                    ("interval", F.template("Optional: the least time between two logins (seconds or a template over run variables).")),
                ], required: ["flow"])),
                ("protected", F.list("Flows of this session that must refuse a bad token.", of: F.name("A flow name."), minItems: 1)),
                ("logout", F.name("Optional: the flow that logs out; needed by `logout_revokes`.")),
                ("refused", F.list("Optional: the documented refusal statuses (default: any 4xx).", of: F.integer("A 4xx status.", 400...499))),
                ("refresh_token_key", F.name("Optional: the store key of the refresh token (default `refresh_token`).")),
                ("promises", F.object("What the backend promises, each with its source.", [
                    ("rotation", promise("A refresh answers a different refresh token.")),
                    ("reuse_detection", promise("A rotated-out refresh token is refused.", [
                        ("revokes_family", F.boolean("Then the newest token of the family is refused too.")),
                        ("grace", grace),
                        ("reuse_interval", F.template("Seconds during which an old token is still swapped (template over run variables).")),
                    ])),
                    ("logout_revokes", promise("After the logout flow, the refresh token is refused.")),
                    ("signature", promise("Forged access tokens are refused (runs without a declaration too).")),
                    ("isolation", promise("Other sessions' tokens are refused.", [("from", F.list("Sessions whose tokens must be refused.", of: F.name("A session name.")))])),
                    ("garbage", promise("Empty, truncated, garbage and absent tokens are refused (runs without a declaration too).")),
                    ("expiry", promise("An access token past its `exp` is refused.", [("leeway", F.template("Seconds of clock skew allowed past `exp`."))])),
                    ("atomic_rotation", promise("Concurrent refreshes with one token: at most one succeeds.", [
                        ("burst", F.integer("How many concurrent refreshes (default 5).", 2...20)), ("grace", grace),
                    ])),
                    ("one_time_codes", promise("The request that redeemed a login code is refused when replayed.")),
                ])),
            ], required: ["probe", "login", "protected"]),
        ]
    }
}
