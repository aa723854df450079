/// Schema definitions for a session file, following `SessionDecoder`.
enum SessionSchema {
    typealias F = SchemaFragment

    static var definitions: [String: JSONValue] {
        [
            "sessionFile": F.object(
                "A session: how authenticated requests carry the token, and how to refresh it.",
                [
                    (
                        "session",
                        F.name("The session's name, e.g. `repairminder.staff`; request states and flows refer to it.")
                    ),
                    ("title", F.text("One line for humans.")),
                    ("namespace", F.name("Token-store namespace holding this session's tokens, e.g. `staff`.")),
                    (
                        "headers",
                        F.map(
                            "Headers added to every request that uses the session (templates), e.g. Authorization: \"Bearer ${store.access_token}\".",
                            of: F.template("Header value (template)."))
                    ),
                    (
                        "refresh",
                        F.ref(
                            "refresh",
                            "Optional: when and how to refresh the token. Without it the session only adds its headers."
                        )
                    ),
                ], required: ["session", "namespace", "headers"]),
            "refresh": F.object(
                "When and how to refresh: `when:` (on a response), `ahead:` (before expiry), or both.",
                [
                    (
                        "flow",
                        F.name("The refresh flow; it runs in the session's namespace and never goes through a session.")
                    ),
                    (
                        "when",
                        F.typed(
                            ["string", "boolean"],
                            "Reactive guard on a response, e.g. `status == 401`: refresh, then retry the request once.")
                    ),
                    (
                        "ahead",
                        F.object(
                            "Proactive refresh: before sending, refresh when `expires_at - now < margin`.",
                            [
                                (
                                    "expires_at",
                                    F.typed(
                                        ["string", "number"],
                                        "Expression giving the expiry in Unix seconds, e.g. `store.expires_at`.")
                                ),
                                (
                                    "margin",
                                    F.typed(["string", "number"], "How long before expiry to refresh, e.g. `60s`.")
                                ),
                            ], required: ["expires_at", "margin"])
                    ),
                    (
                        "not_for",
                        F.list(
                            "Requests whose responses never trigger the reactive refresh (`when:`), each \"METHOD /path\" with the path as written in the flow's request state, e.g. \"POST /auth/logout\". Proactive refresh (`ahead:`) still applies.",
                            of: F.typed(["string"], "\"METHOD /path\"", ["pattern": .string(#"^[A-Za-z]+[ \t]+/"#)]))
                    ),
                    (
                        "on_failure",
                        F.object(
                            "How the calling flow ends when the refresh fails (the namespace is cleared).",
                            [
                                (
                                    "outcome",
                                    F.name(
                                        "The caller's outcome (success false); default `signed_out`.",
                                        F.notOneOf(Array(Flow.reservedOutcomes)).objectValue ?? [:])
                                ),
                                ("reason", F.template("Optional reason (template).")),
                            ], required: ["outcome"])
                    ),
                ], required: ["flow"], ["anyOf": .array([F.requires("when"), F.requires("ahead")])]),
        ]
    }
}
