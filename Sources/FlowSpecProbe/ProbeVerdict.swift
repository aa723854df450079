import FlowSpecScenarios

/// How one probe ended.
public struct ProbeVerdict: Sendable {
    public enum Status: String, Sendable, Codable {
        case held, broken
        case notApplicable = "not_applicable"
        case skipped
    }

    public var session: String
    public var kind: ProbeKind
    /// The variant within the kind, e.g. "unsigned token (alg: none)".
    public var check: String
    public var status: Status
    /// What happened, in one sentence; for broken ones the evidence in words.
    public var detail: String
    /// Where the promise is stated (empty for universal probes that rest on RFC 6750 alone).
    public var source: String
    /// The exchanges that prove a broken verdict, masked.
    public var evidence: [ExchangeRecord] = []
    public var infrastructure = false
}
