import FlowSpecLanguage
import FlowSpecRuntime

/// What happened when one scenario ran: enough to explain a failure without re-running it.
public struct ScenarioReport: Sendable {
    public enum Status: String, Sendable { case passed, failed, skipped }

    public var name: String
    public var file: String
    public var tags: [String]
    public var status: Status
    /// Each a complete, masked sentence: what was expected, what happened.
    public var failures: [String]
    /// The main flow's path per run step, for the report.
    public var paths: [(flow: String, path: [String])]
    /// The last request and response, masked, for failure reports.
    public var lastExchange: String?
    public var durationSeconds: Double
    /// True when a run ended without a response from a (live) backend.
    public var infrastructureFailure: Bool
    public var skipReason: String?
}
