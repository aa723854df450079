@testable import FlowSpecLanguage
@testable import FlowSpecProbe

/// One run of the toy that shows a verdict of one kind: the backend's knobs, the probe file, and what the kind's
/// verdicts must say.
struct ToyCase: Sendable {
    /// What the case shows, for a failure's message.
    var name: String
    var knobs = ToyAuthBackend.Knobs()
    var file = ToyFlows.probe()
    var more: [String: String] = [:]
    var allowWait = 60.0
    var vars: [String: JSONValue] = [:]
    /// The verdict expected: the one with this check; nil: every verdict of the kind.
    var check: String?
    var status: ProbeVerdict.Status
    /// Words its detail must contain.
    var detail: String
    /// Words its source must contain, where that matters.
    var source: String?

    init(
        _ name: String, _ knobs: ToyAuthBackend.Knobs, file: String = ToyFlows.probe(), more: [String: String] = [:],
        allowWait: Double = 60, vars: [String: JSONValue] = [:], check: String? = nil, _ status: ProbeVerdict.Status,
        _ detail: String,
        source: String? = nil
    ) {
        self.name = name
        self.knobs = knobs
        self.file = file
        self.more = more
        self.allowWait = allowWait
        self.vars = vars
        self.check = check
        self.status = status
        self.detail = detail
        self.source = source
    }

    /// On the faithful backend.
    init(
        _ name: String, file: String = ToyFlows.probe(), more: [String: String] = [:], allowWait: Double = 60,
        vars: [String: JSONValue] = [:],
        check: String? = nil, _ status: ProbeVerdict.Status, _ detail: String, source: String? = nil
    ) {
        self.init(
            name, ToyAuthBackend.Knobs(), file: file, more: more, allowWait: allowWait, vars: vars, check: check,
            status, detail, source: source)
    }
}

/// For every kind of the catalogue, the toy runs that show its four outcomes: held on the faithful backend, BROKEN
/// where a knob breaks the promise, an ERROR where a knob makes the control (the legitimate request) fail too, and
/// n/a where it does not apply or is not declared. ProbeOutcomeTests fails for a kind missing here.
enum ToyCases {
    enum Outcome: String, CaseIterable, Sendable {
        case held, broken
        case controlFailed = "control failed"
        case notApplicable = "not applicable or not declared"
    }

    static func knobs(_ change: (inout ToyAuthBackend.Knobs) -> Void) -> ToyAuthBackend.Knobs {
        var knobs = ToyAuthBackend.Knobs()
        change(&knobs)
        return knobs
    }

    /// The staff probe file without `kind`'s promise.
    static func undeclared(_ kind: ProbeKind) -> ToyCase {
        ToyCase(
            "not declared", file: ToyFlows.probe([kind.rawValue: nil]), .notApplicable,
            "no `\(kind.rawValue)` promise is declared")
    }

    /// The probe file for the expiry probe, and a backend whose access tokens live 3 seconds: long enough for the
    /// control just after the login on a busy machine, short enough to wait for.
    static let expiryFile = ToyFlows.probe([ToyFlows.expiry.0: ToyFlows.expiry.1])
    static func shortLived(_ change: (inout ToyAuthBackend.Knobs) -> Void = { _ in }) -> ToyAuthBackend.Knobs {
        knobs {
            $0.accessLifetime = 3; change(&$0)
        }
    }

    /// An opaque token states no expiry: the probe file declares how long it lives.
    static let opaqueExpiryFile = ToyFlows.probe([
        "expiry": #"{ source: "toy docs: access tokens live 3 s", lifetime: 3s }"#
    ])

    static let isolationFile = ToyFlows.probe([ToyFlows.isolation.0: ToyFlows.isolation.1])
    static let customer = ["flows/toy/customer-probe.yaml": ToyFlows.customerProbe]
    /// The staff session logging in with its password alone: no code is asked for.
    static func passwordOnly(_ changes: [String: String?]) -> String {
        ToyFlows.probe(changes, login: "toy.password-login", inputs: ToyFlows.inputs(ToyAuthBackend.alice, code: false))
    }

    static let ownToken = "not checked: the control failed: toy.me answered 401 to the session's own token"
    static let ownRefreshToken =
        "not checked: the control failed: the refresh flow refused the session's fresh refresh token"

    static func of(_ kind: ProbeKind) -> [Outcome: [ToyCase]]? {
        switch kind {
        case .oneTimeCodes:
            [
                .held: [
                    ToyCase(
                        "a login that does not ask again", check: "in a new login", .held,
                        "the used code was refused (401) in a new login; the control: the next login, with a fresh code, succeeded"
                    ),
                    ToyCase(
                        "a login that asks again", check: "in a new login (toy.preauth-login)", .held,
                        "the used code was refused (401) in a new login; the control: a fresh code in that same login was accepted"
                    ),
                ],
                .broken: [
                    ToyCase(
                        "codes reusable", knobs { $0.codesSingleUse = false }, check: "replayed at once", .broken,
                        "the request that redeemed the code was accepted again (200)"),
                    // The replay is answered 410 (its pre-auth id is consumed): only the new login shows the code still works.
                    ToyCase(
                        "codes reusable, behind a pre-auth id", knobs { $0.codesSingleUse = false },
                        check: "in a new login (toy.preauth-login)", .broken,
                        "the code used by the previous login was accepted again (200) in a new login"),
                ],
                .controlFailed: [
                    // One wrong code burns the login's code: the fresh one after the used one is refused too.
                    ToyCase(
                        "one wrong code burns the login", knobs { $0.codeAttempts = 1 },
                        check: "in a new login (toy.preauth-login)", .error,
                        "not checked: the control failed: after the used code was refused (401), a fresh code in the same login did not log in either"
                    )
                ],
                .notApplicable: [
                    ToyCase(
                        "a login without a code", file: passwordOnly(["one_time_codes": #""toy docs: codes""#]),
                        .notApplicable,
                        "the login flow toy.password-login asks for no input of type `code`"),
                    undeclared(kind),
                ],
            ]
        case .lifetime:
            [
                .held: [
                    ToyCase(
                        "a JWT with iat", check: "access token", .held,
                        "the access token lives 1 h (its `exp − iat`), at most the declared 1 h"),
                    ToyCase(
                        "expires_in", check: "refresh token", .held,
                        "the refresh token lives 1 d (the login answer's `refresh_expires_in`), at most the declared 1 d"
                    ),
                    ToyCase(
                        "a JWT without iat", knobs { $0.iat = false }, check: "access token", .held,
                        "(its `exp`, from the time of the login)"),
                    ToyCase(
                        "an opaque token", knobs { $0.jwt = false }, check: "access token", .held,
                        "(the login answer's `expires_in`)"),
                ],
                .broken: [
                    ToyCase(
                        "access tokens live 30 days", knobs { $0.accessLifetime = 30 * 86_400 }, check: "access token",
                        .broken, "the access token lives 30 d"),
                    ToyCase(
                        "refresh tokens live 90 days", knobs { $0.refreshLifetime = 90 * 86_400 },
                        check: "refresh token", .broken,
                        "the refresh token lives 90 d (the login answer's `refresh_expires_in`), longer than the declared 1 d"
                    ),
                ],
                // Its control is that the backend states the lifetime: where it does not, the kind is n/a, not held.
                .controlFailed: [
                    ToyCase(
                        "no lifetime stated",
                        knobs {
                            $0.jwt = false; $0.statesLifetime = false
                        }, check: "access token", .notApplicable,
                        "the access token states no lifetime"),
                    ToyCase(
                        "no refresh token", knobs { $0.issueRefreshTokens = false }, check: "refresh token", .error,
                        "not checked: the login stored no refresh token"),
                ],
                .notApplicable: [
                    undeclared(kind),
                    ToyCase(
                        "its maximum from an unset run variable",
                        file: ToyFlows.probe(["lifetime": #"{ source: "toy docs", access: "${vars.most_access}" }"#]),
                        check: "access token", .skipped, "set the run variable most_access"),
                ],
            ]
        case .signature:
            [
                .held: [
                    ToyCase(
                        "forgeries refused", .held,
                        "refused (toy.me 401); the control: the session's own token was accepted by toy.me")
                ],
                .broken: [
                    ToyCase(
                        "no signature check", knobs { $0.verifySignature = false }, check: "altered signature", .broken,
                        "toy.me accepted it: 200"),
                    ToyCase(
                        "alg: none accepted", knobs { $0.acceptUnsigned = true }, check: "unsigned token (alg: none)",
                        .broken, "toy.me accepted it: 200"),
                ],
                .controlFailed: [
                    ToyCase("/me refuses every token", knobs { $0.meRefusesAll = true }, .error, ownToken)
                ],
                .notApplicable: [
                    ToyCase(
                        "an opaque token", knobs { $0.jwt = false }, .notApplicable, "the access token is not a JWT"),
                    // Universal: without a declaration it runs on RFC 6750's word.
                    ToyCase("not declared", file: ToyFlows.probe(base: []), .held, "refused", source: "RFC 6750"),
                ],
            ]
        case .garbage:
            [
                .held: [ToyCase("bad tokens refused", .held, "refused")],
                .broken: [
                    ToyCase(
                        "/me accepts anything", knobs { $0.refusal = 200 }, check: "garbage token", .broken,
                        "toy.me accepted it: 200"),
                    ToyCase(
                        "a malformed refresh token crashes the refresh", knobs { $0.crashOnMalformedRefresh = true },
                        check: "truncated refresh token", .broken,
                        "the refresh answered 500, a server error, instead of refusing"),
                ],
                .controlFailed: [
                    ToyCase("/me refuses every token", knobs { $0.meRefusesAll = true }, check: "", .error, ownToken),
                    ToyCase(
                        "the refresh refuses every token", knobs { $0.refreshRefusesAll = true },
                        check: "refresh tokens", .error,
                        "not checked: the control failed: the refresh flow refused the session's own refresh token"),
                ],
                .notApplicable: [
                    ToyCase("not declared", file: ToyFlows.probe(base: []), .held, "refused", source: "RFC 6750")
                ],
            ]
        case .isolation:
            [
                .held: [
                    ToyCase(
                        "customer tokens refused", file: isolationFile, more: customer,
                        check: "a token of toy.customer", .held,
                        "refused (toy.me 401); the control: the session's own token was accepted by toy.me, and toy.customer's token by its own toy.customer-me"
                    )
                ],
                .broken: [
                    ToyCase(
                        "customer tokens open /me", knobs { $0.customerOpensStaff = true }, file: isolationFile,
                        more: customer, check: "a token of toy.customer",
                        .broken, "toy.me accepted it: 200")
                ],
                .controlFailed: [
                    ToyCase(
                        "/customer/me refuses customers", knobs { $0.customerMeRefusesAll = true }, file: isolationFile,
                        more: customer, .error,
                        "not checked: the control failed: toy.customer-me answered 401 to toy.customer's own token"),
                    ToyCase(
                        "/me refuses every token", knobs { $0.meRefusesAll = true }, file: isolationFile,
                        more: customer, .error, ownToken),
                    ToyCase(
                        "no probe file to log in to the customer session", file: isolationFile, .error,
                        "session `toy.customer` has no probe file"),
                ],
                .notApplicable: [undeclared(kind)],
            ]
        case .expiry:
            [
                .held: [
                    ToyCase(
                        "an expired token refused", shortLived(), file: expiryFile, allowWait: 10, .held,
                        "refused (toy.me 401); the control: before the wait,"),
                    ToyCase(
                        "an opaque token refused after its declared lifetime", shortLived { $0.jwt = false },
                        file: opaqueExpiryFile, allowWait: 10, .held,
                        "refused (toy.me 401); the control: before the wait,"),
                ],
                .broken: [
                    ToyCase(
                        "expired tokens accepted", shortLived { $0.acceptExpired = true }, file: expiryFile,
                        allowWait: 10, .broken, "toy.me accepted it: 200"),
                    ToyCase(
                        "opaque tokens outlive their lifetime",
                        shortLived {
                            $0.jwt = false; $0.acceptExpired = true
                        }, file: opaqueExpiryFile, allowWait: 10, .broken,
                        "toy.me accepted it: 200"),
                ],
                .controlFailed: [
                    ToyCase(
                        "/me refuses every token", shortLived { $0.meRefusesAll = true }, file: expiryFile,
                        allowWait: 10, .error, ownToken)
                ],
                .notApplicable: [
                    ToyCase(
                        "an opaque token without a declared lifetime", knobs { $0.jwt = false }, file: expiryFile,
                        .notApplicable,
                        "the access token is not a JWT with an `exp` claim, and no `lifetime:` is declared for it"),
                    undeclared(kind),
                ],
            ]
        case .rotation:
            [
                .held: [ToyCase("rotates", .held, "the refresh answered a new refresh token")],
                .broken: [
                    ToyCase(
                        "no rotation", knobs { $0.rotate = false }, .broken,
                        "the refresh answered the same refresh token again")
                ],
                .controlFailed: [
                    ToyCase(
                        "the refresh refuses every token", knobs { $0.refreshRefusesAll = true }, .error,
                        ownRefreshToken)
                ],
                .notApplicable: [undeclared(kind)],
            ]
        case .atomicRotation:
            [
                .held: [
                    ToyCase("one of a burst succeeds", .held, "1 of 6 concurrent refreshes with one token succeeded")
                ],
                .broken: [
                    ToyCase(
                        "a check-then-act race", knobs { $0.raceOnRefresh = true }, .broken,
                        "of 6 concurrent refreshes with one token succeeded, handing out")
                ],
                .controlFailed: [
                    ToyCase(
                        "the refresh refuses every token", knobs { $0.refreshRefusesAll = true }, .error,
                        "not checked: the control failed: none of 6 concurrent refreshes with the session's own refresh token succeeded"
                    )
                ],
                .notApplicable: [undeclared(kind)],
            ]
        case .reuseDetection:
            [
                .held: [ToyCase("reuse revokes the family", .held, "the control:")],
                .broken: [
                    ToyCase(
                        "no reuse detection", knobs { $0.detectReuse = false }, check: "rotated-out token", .broken,
                        "a rotated-out refresh token was accepted again"),
                    ToyCase(
                        "the family survives", knobs { $0.revokeFamily = false }, check: "family revoked", .broken,
                        "the newest refresh token of the family still works"),
                ],
                .controlFailed: [
                    ToyCase(
                        "the refresh refuses every token", knobs { $0.refreshRefusesAll = true }, .error,
                        ownRefreshToken)
                ],
                .notApplicable: [undeclared(kind)],
            ]
        case .logoutRevokes:
            [
                .held: [
                    ToyCase(
                        "logout revokes", .held,
                        "after logout the refresh token is refused; the control: it refreshed just before the logout")
                ],
                .broken: [
                    ToyCase(
                        "logout keeps the refresh token", knobs { $0.logoutRevokes = false }, .broken,
                        "the refresh token still works after logout")
                ],
                .controlFailed: [
                    ToyCase(
                        "the refresh refuses every token", knobs { $0.refreshRefusesAll = true }, .error,
                        ownRefreshToken),
                    ToyCase(
                        "the logout answered otherwise than declared", knobs { $0.logoutStatus = 401 }, .error,
                        "not checked: the logout request was answered 401, not a 2xx"),
                ],
                .notApplicable: [undeclared(kind)],
            ]
        case .accessAfterLogout:
            [
                .held: [
                    ToyCase(
                        "logout ends the access token", .held,
                        "after logout, refused (toy.me 401); the control: before the logout, the session's own token was accepted"
                    )
                ],
                .broken: [
                    ToyCase(
                        "a stateless access token", knobs { $0.logoutKeepsAccess = true }, .broken,
                        "after logout, toy.me accepted it: 200 — the access token outlives the logout")
                ],
                .controlFailed: [
                    ToyCase("/me refuses every token", knobs { $0.meRefusesAll = true }, .error, ownToken),
                    ToyCase(
                        "the logout answered otherwise than declared", knobs { $0.logoutStatus = 401 }, .error,
                        "not checked: the logout request was answered 401, not a 2xx, so it ended nothing to check (if 401 is how this backend answers a logout that worked, declare it: `logout: { flow: toy.logout, answers: [401] }`)"
                    ),
                ],
                .notApplicable: [undeclared(kind)],
            ]
        case .deactivatedAccount:
            [
                .held: [
                    ToyCase(
                        "its token refused at once", .held,
                        "after the account was deactivated, refused (toy.me 401); the control: before that, the session's own token was accepted"
                    )
                ],
                .broken: [
                    ToyCase(
                        "tokens outlive the deactivation", knobs { $0.deactivationKeepsTokens = true }, .broken,
                        "after the account was deactivated, toy.me accepted it: 200")
                ],
                .controlFailed: [
                    ToyCase("/me refuses every token", knobs { $0.meRefusesAll = true }, .error, ownToken),
                    ToyCase(
                        "the deactivate command fails",
                        file: ToyFlows.probe([
                            "deactivated_account":
                                #"{ source: "toy docs", inputs: \#(ToyFlows.inputs(ToyAuthBackend.leaver)), deactivate: "exit 3" }"#
                        ]),
                        check: "deactivate", .error, "not checked: the `deactivate` command failed"),
                ],
                .notApplicable: [undeclared(kind)],
            ]
        case .secondFactor:
            [
                .held: [
                    ToyCase(
                        "every password login asks for the code", .held,
                        "a code was asked for before any token; the control: with the code, the login succeeded")
                ],
                .broken: [
                    ToyCase(
                        "two-factor optional", knobs { $0.secondFactorOptional = true }, check: "toy.login", .broken,
                        "signed in without ever being asked for a code: POST /login answered it"),
                    ToyCase(
                        "a side door: the password alone at /token",
                        file: ToyFlows.probe([
                            "second_factor":
                                #"{ source: "toy docs", logins: [ { flow: toy.password-login, inputs: \#(ToyFlows.inputs(ToyAuthBackend.alice, code: false)) } ] }"#
                        ]),
                        .broken, "signed in without ever being asked for a code: POST /token answered it"),
                ],
                .controlFailed: [
                    ToyCase(
                        "the right code refused", knobs { $0.codesRefused = true }, check: "toy.login", .error,
                        "not checked: the control failed: after the code the login ended `out`"),
                    ToyCase(
                        "the account locked", knobs { $0.locked = [ToyAuthBackend.alice] }, .error,
                        "without asking for a code and without a token"),
                ],
                .notApplicable: [undeclared(kind)],
            ]
        case .enumeration:
            [
                .held: [
                    ToyCase("one refusal for both", .held, "(401)"),
                    // The email each was sent comes back in the refusal: set aside, the two are the same.
                    ToyCase("refusals naming the email", knobs { $0.refusalNamesEmail = true }, .held, "(401)"),
                ],
                .broken: [
                    ToyCase(
                        "an unknown account answered 404", knobs { $0.revealsUnknownAccounts = true }, .broken,
                        "different statuses 404 and 401")
                ],
                .controlFailed: [
                    ToyCase(
                        "the \"wrong\" secret is right",
                        file: ToyFlows.probe([
                            "enumeration":
                                #"{ source: "toy docs", flow: toy.login, unknown: { email: "nobody@toy.test", password: "x" }, wrong: \#(ToyFlows.inputs(ToyAuthBackend.bob)) }"#
                        ]),
                        .error, "not checked: the control failed: toy.login with the wrong secret"),
                    ToyCase(
                        "the probe file's login fails", knobs { $0.locked = [ToyAuthBackend.alice] }, .error,
                        "not checked: could not log in with toy.login"),
                ],
                .notApplicable: [undeclared(kind)],
            ]
        case .attemptLimits:
            [
                .held: [
                    ToyCase(
                        "the code burnt", check: "wrong codes", .held,
                        "after 5 wrong codes the right one was refused (401); the control: a login without guesses succeeded"
                    ),
                    ToyCase(
                        "the account locked", check: "wrong passwords", .held,
                        "after 5 wrong passwords the right one was refused (423)"),
                    ToyCase(
                        "rate-limited", knobs { $0.codeRateLimit = 3 }, check: "wrong codes", .held,
                        "rate-limited (429) after 3 wrong codes; the control: a login without guesses succeeded"),
                ],
                .broken: [
                    ToyCase(
                        "no code attempt limit", knobs { $0.noAttemptLimit = true }, check: "wrong codes", .broken,
                        "after 5 wrong codes the right one was still accepted (200): nothing limits guessing"),
                    ToyCase(
                        "no lockout", knobs { $0.noLockout = true }, check: "wrong passwords", .broken,
                        "after 5 wrong passwords the right one was still accepted (200)"),
                    ToyCase(
                        "the code never compared", knobs { $0.anyCode = true }, check: "wrong codes", .broken,
                        "wrong guess 1 was accepted (200)"),
                ],
                .controlFailed: [
                    // The throwaway account is still locked from an earlier run: a refusal after guesses would prove nothing.
                    ToyCase(
                        "the throwaway account already locked", knobs { $0.locked = [ToyAuthBackend.spare] }, .error,
                        "not checked: the control failed: a login without wrong guesses ended `out`")
                ],
                .notApplicable: [
                    ToyCase(
                        "a login without a code",
                        file: passwordOnly(["attempt_limits": #"{ source: "toy docs", codes: 5 }"#]),
                        check: "wrong codes", .notApplicable,
                        "the login flow asks for no input of type `code`"),
                    ToyCase(
                        "its count from an unset run variable",
                        file: ToyFlows.probe([
                            "attempt_limits": #"{ source: "toy docs", codes: "${vars.code_attempts}" }"#
                        ]),
                        check: "wrong codes", .skipped, "set the run variable code_attempts"),
                    undeclared(kind),
                ],
            ]
        case .crossUser:
            [
                .held: [
                    ToyCase(
                        "notes are their owner's", .held, "refused (404); the control: the owner's own token reached it"
                    )
                ],
                .broken: [
                    ToyCase(
                        "any user reads any note", knobs { $0.anyOwner = true },
                        check: "toy.note-read: the first account's token on the second account's object",
                        .broken, "the first account reached the second account's object: 200"),
                    // Refused, but with 403: the other user learns the note exists, where the documents promise 404.
                    ToyCase(
                        "another's note refused with 403", knobs { $0.othersNoteStatus = 403 }, .broken,
                        "answered 403, not the declared refusal 404"),
                ],
                .controlFailed: [
                    ToyCase(
                        "the owner cannot read its note", knobs { $0.ownerCannotRead = true }, .error,
                        "not checked: the control failed: toy.note-read with the owner's own token ended `refused`"),
                    ToyCase(
                        "the second account cannot log in",
                        file: ToyFlows.probe([
                            "cross_user":
                                #"{ source: "toy docs", second_account: { inputs: { email: "nobody@toy.test", password: "x" } }, owner: toy.note-create, object_key: note_id, access: [toy.note-read] }"#
                        ]),
                        .error, "not checked: could not log in the second account: out"),
                ],
                .notApplicable: [undeclared(kind)],
            ]
        case .sendLimit:
            [
                .held: [
                    ToyCase(
                        "the second send refused", .held,
                        "send 2 of 3 was refused (429); the control: the first was accepted")
                ],
                .broken: [
                    ToyCase(
                        "no send limit", knobs { $0.noSendLimit = true }, .broken,
                        "all 3 sends to one destination were accepted")
                ],
                .controlFailed: [
                    ToyCase(
                        "every send refused", knobs { $0.sendsRefused = true }, .error,
                        "not checked: the control failed: the first send ended `refused`")
                ],
                .notApplicable: [undeclared(kind)],
            ]
        default: nil
        }
    }
}
