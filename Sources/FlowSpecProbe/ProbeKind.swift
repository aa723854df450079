/// The name of an attack of the catalogue (`ProbeCatalogue.attacks`): what probe files, `--probe` and reports
/// call it. Only names of the catalogue can be made, so a kind always has its attack.
package struct ProbeKind: Hashable, Sendable, Codable, CustomStringConvertible {
    package let rawValue: String

    init(_ attack: any ProbeAttack.Type) { rawValue = attack.name }

    package init?(rawValue: String) {
        guard ProbeCatalogue.attack(named: rawValue) != nil else { return nil }
        self.rawValue = rawValue
    }

    package init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let kind = ProbeKind(rawValue: name) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "unknown probe kind `\(name)`"))
        }
        self = kind
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Every kind, in the catalogue's order.
    package static var allCases: [ProbeKind] { ProbeCatalogue.attacks.map(ProbeKind.init) }

    var attack: any ProbeAttack.Type { ProbeCatalogue.attack(named: rawValue)! }
    package var title: String { attack.title }
    /// Runs without a declared promise: every bearer-token API must keep it.
    package var isUniversal: Bool { attack.universal }
    package var description: String { rawValue }
}
