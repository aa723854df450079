import FlowSpecLanguage

/// The attacks of `flowspec probe`, in the order a session's run makes them. Adding an attack is one file (a type
/// conforming to `ProbeAttack`), one line here, its test, and the sandbox break that proves it (docs/probe.md).
package enum ProbeCatalogue {
    /// The `.shared` attacks run in this order on one login: the code replay first (while the code is fresh), the token
    /// probes (which change nothing on the server), rotation, the burst, reuse detection last (it revokes the family).
    /// The `.own` ones follow, each with logins of its own.
    static let attacks: [any ProbeAttack.Type] = [
        OneTimeCodesAttack.self,
        LifetimeAttack.self,
        SignatureAttack.self,
        GarbageAttack.self,
        IsolationAttack.self,
        ExpiryAttack.self,
        RotationAttack.self,
        AtomicRotationAttack.self,
        ReuseDetectionAttack.self,
        LogoutRevokesAttack.self,
        AccessAfterLogoutAttack.self,
        DeactivatedAccountAttack.self,
        SecondFactorAttack.self,
        EnumerationAttack.self,
        AttemptLimitsAttack.self,
        CrossUserAttack.self,
        SendLimitAttack.self,
    ]

    static func attack(named name: String) -> (any ProbeAttack.Type)? { attacks.first { $0.name == name } }

    /// Each promise's schema, for the probe file's `promises` in `flowspec schema flow`.
    package static var promiseSchemas: [(String, JSONValue)] {
        attacks.map { attack in
            let description =
                attack.title.prefix(1).uppercased() + attack.title.dropFirst() + ": " + attack.heldWhen
                + (attack.universal ? " (runs without a declaration too)." : ".")
            return (
                attack.name,
                ProbeSchema.promise(
                    description, attack.options.map { ($0.key, $0.schema) },
                    requiredOptions: attack.options.filter(\.required).map(\.key))
            )
        }
    }

    /// The catalogue table of docs/probe.md (a test keeps the docs equal to it).
    package static var markdownTable: String {
        var lines = ["| kind | what it sends | its control | held when | declare |", "|---|---|---|---|---|"]
        for attack in attacks {
            var declare: [String] = attack.universal ? ["nothing (universal)"] : []
            declare += attack.options.filter(\.required).map { "`\($0.key)`" }
            declare += attack.needs.sorted { "\($0)" < "\($1)" }.map {
                $0 == .logoutFlow ? "`logout:`" : "the session's `refresh:`"
            }
            let optional = attack.options.filter { !$0.required }.map { "`\($0.key)`" }
            if !optional.isEmpty { declare.append("optional " + optional.joined(separator: ", ")) }
            lines.append(
                "| `\(attack.name)` | \(attack.sends) | \(attack.control) | \(attack.heldWhen) | \(declare.isEmpty ? "its source" : declare.joined(separator: "; ")) |"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension SchemaKind {
    /// The schema `flowspec schema` prints and `schemas/` ships: the flow schema with the catalogue's promises.
    package var published: JSONValue { document(probePromises: ProbeCatalogue.promiseSchemas) }
    package var publishedText: String { text(probePromises: ProbeCatalogue.promiseSchemas) }
}
