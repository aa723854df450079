import FlowSpecLanguage
import FlowSpecRuntime

/// What happened when one scenario ran: enough to explain a failure without re-running it.
package struct ScenarioReport: Sendable {
    package enum Status: String, Sendable { case passed, failed, skipped }

    package var name: String
    package var file: String
    package var tags: [String]
    package var status: Status
    /// Each a complete, masked sentence: what was expected, what happened.
    package var failures: [String]
    /// The main flow's path per run step, for the report.
    package var paths: [(flow: String, path: [String])]
    /// The last request and response, masked, for failure reports.
    package var lastExchange: String?
    package var durationSeconds: Double
    /// True when a run ended without a response from a (live) backend.
    package var infrastructureFailure: Bool
    package var skipReason: String?
    /// Every flow run (steps, sub-flows, refreshes): states, edges taken, false guards.
    package var runs: [FlowRunTrace] = []
    /// Every request and response, masked.
    package var exchanges: [ExchangeRecord] = []
    /// 1-based, when the run repeats scenarios (`--repeat`); nil otherwise.
    package var repetition: Int?

    package init(
        name: String, file: String, tags: [String], status: Status, failures: [String],
        paths: [(flow: String, path: [String])],
        lastExchange: String?, durationSeconds: Double, infrastructureFailure: Bool, skipReason: String?,
        runs: [FlowRunTrace] = [], exchanges: [ExchangeRecord] = [], repetition: Int? = nil
    ) {
        self.name = name
        self.file = file
        self.tags = tags
        self.status = status
        self.failures = failures
        self.paths = paths
        self.lastExchange = lastExchange
        self.durationSeconds = durationSeconds
        self.infrastructureFailure = infrastructureFailure
        self.skipReason = skipReason
        self.runs = runs
        self.exchanges = exchanges
        self.repetition = repetition
    }
}
