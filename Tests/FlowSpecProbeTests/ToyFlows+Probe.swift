/// The toy's probe files.
extension ToyFlows {
    /// A toy account's login inputs: its code is read from the toy's inbox (`${vars.toy_inbox}`), where the backend
    /// writes the last code it sent to each account; the command sees the email as `$email`, as input commands see
    /// the inputs handed out before them.
    static func inputs(_ email: String, code: Bool = true) -> String {
        let password = ToyAuthBackend.accounts[email]?.password ?? "no-such-password"
        return
            #"{ email: "\#(email)", password: "\#(password)"\#(code ? #", code: { command: 'cat "${vars.toy_inbox}/$email"' }"# : "") }"#
    }

    /// Every promise the staff session declares by default, in the catalogue's order — all but `expiry` (it waits
    /// for the token to expire: give it with a short lifetime) and `isolation` (it needs the customer session's probe
    /// file: `isolation` and `customerProbe`).
    static let promises: [(String, String)] = [
        (
            "one_time_codes",
            #"{ source: "toy docs: a code works once", logins: [ { flow: toy.preauth-login, inputs: \#(inputs(ToyAuthBackend.alice)) } ] }"#
        ),
        (
            "lifetime",
            #"{ source: "toy docs: access tokens live an hour, refresh tokens a day", access: 1h, refresh: 1d }"#
        ),
        ("rotation", #""toy docs: rotation""#),
        ("atomic_rotation", #"{ source: "toy docs: single use", burst: 6 }"#),
        ("reuse_detection", #"{ source: "toy docs: reuse", revokes_family: true }"#),
        ("logout_revokes", #""toy docs: logout""#),
        ("access_after_logout", #""toy docs: logout ends the access token too""#),
        (
            "deactivated_account",
            #"{ source: "toy docs: a deactivated account is signed out at once", inputs: \#(inputs(ToyAuthBackend.leaver)), deactivate: \#(deactivate), reactivate: \#(reactivate) }"#
        ),
        (
            "second_factor",
            #"{ source: "toy docs: every password login asks for the emailed code", logins: [ { flow: toy.login, inputs: \#(inputs(ToyAuthBackend.alice)) }, { flow: toy.preauth-login, inputs: \#(inputs(ToyAuthBackend.alice)) } ] }"#
        ),
        (
            "enumeration",
            #"{ source: "toy docs: a refused login does not say why", flow: toy.login, unknown: { email: "nobody@toy.test", password: "no-such-password" }, wrong: { email: "\#(ToyAuthBackend.bob)", password: "not-bobs-password" } }"#
        ),
        (
            "attempt_limits",
            #"{ source: "toy docs: 5 wrong codes or passwords", codes: 5, passwords: 5, inputs: \#(inputs(ToyAuthBackend.spare)) }"#
        ),
        (
            "cross_user",
            #"{ source: "toy docs: a note is its owner's", second_account: { inputs: \#(inputs(ToyAuthBackend.bob)) }, owner: toy.note-create, object_key: note_id, access: [toy.note-read], refused: [404] }"#
        ),
        (
            "send_limit",
            #"{ source: "toy docs: one code a minute", flow: toy.send-code, inputs: { email: "someone@toy.test" }, burst: 3 }"#
        ),
    ]

    /// What an admin would do to the leaver's account, as shell commands: the toy reads `${vars.toy_deactivated}`.
    static let deactivate = #"'touch "${vars.toy_deactivated}/$email"'"#
    static let reactivate = #"'rm -f "${vars.toy_deactivated}/$email"'"#

    static let isolation = (
        "isolation", #"{ source: "toy docs: customer tokens are not staff tokens", from: [toy.customer] }"#
    )
    static let expiry = ("expiry", #""toy docs: access tokens expire""#)

    /// The staff session's probe file. `changes`: promises to add or replace (by kind), or to leave out (nil); they
    /// go into `base`, which is `promises` unless given.
    static func probe(
        _ changes: [String: String?] = [:], base: [(String, String)] = promises, login: String = "toy.login",
        inputs: String = inputs(ToyAuthBackend.alice), interval: String? = nil, logout: String = "toy.logout",
        refused: String = "[401]"
    ) -> String {
        var declared = base
        for (kind, value) in changes.sorted(by: { $0.key < $1.key }) {
            let at = declared.firstIndex { $0.0 == kind }
            switch (at, value) {
            case (let i?, let value?): declared[i].1 = value
            case (let i?, nil): declared.remove(at: i)
            case (nil, let value?): declared.append((kind, value))
            case (nil, nil): break
            }
        }
        return """
            probe: toy.session
            login:
              flow: \(login)
              inputs: \(inputs)\(interval.map { "\n  interval: \($0)" } ?? "")
            protected: [toy.me]
            logout: \(logout)
            refused: \(refused)
            refresh_token_key: refresh
            \(declared.isEmpty ? "" : "promises:\n" + declared.map { "  \($0.0): \($0.1)" }.joined(separator: "\n"))

            """
    }

    /// The customer session's probe file: what isolation logs in with.
    static let customerProbe = """
        probe: toy.customer
        login:
          flow: toy.customer-login
          inputs: \(inputs(ToyAuthBackend.carol, code: false))
        protected: [toy.customer-me]
        refused: [401]

        """
}
