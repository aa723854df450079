/// The name of an attack of the catalogue (`ProbeCatalogue.attacks`): what probe files, `--probe` and reports
/// call it. Only names of the catalogue can be made, so a kind always has its attack.
public struct ProbeKind: Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    init(_ attack: any ProbeAttack.Type) { rawValue = attack.name }

    public init?(rawValue: String) {
        guard ProbeCatalogue.attack(named: rawValue) != nil else { return nil }
        self.rawValue = rawValue
    }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let kind = ProbeKind(rawValue: name) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown probe kind `\(name)`"))
        }
        self = kind
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Every kind, in the catalogue's order.
    public static var allCases: [ProbeKind] { ProbeCatalogue.attacks.map(ProbeKind.init) }

    var attack: any ProbeAttack.Type { ProbeCatalogue.attack(named: rawValue)! }
    public var title: String { attack.title }
    /// Runs without a declared promise: every bearer-token API must keep it.
    public var isUniversal: Bool { attack.universal }
    public var description: String { rawValue }
}
