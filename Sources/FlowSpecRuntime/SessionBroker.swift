import FlowSpecLanguage

/// Coordinates token refreshes per session so that concurrent requests share one refresh (single flight)
/// and a request sent with an old token is retried with the new one instead of refreshing again.
package actor SessionBroker {
    package enum RefreshOutcome: Sendable, Equatable {
        case refreshed
        case failed(String)
        /// The refresh got no response: the session is kept, the caller ends with an infrastructure error.
        case unreachable(String)
        /// The refresh flow itself went wrong (error, missing input): reported as an error, session kept.
        case broken(String)
    }

    private var generations: [String: Int] = [:]
    private var inFlight: [String: Task<RefreshOutcome, Never>] = [:]

    package init() {}

    package func generation(of session: String) -> Int { generations[session] ?? 0 }

    /// Refreshes `session` unless a newer token exists already (`sentWith` is the generation the caller used)
    /// or a refresh is running, in which case the caller waits for that one.
    package func refresh(_ session: String, sentWith: Int, perform: @escaping @Sendable () async -> RefreshOutcome)
        async
        -> RefreshOutcome
    {
        if generation(of: session) > sentWith { return .refreshed }
        if let running = inFlight[session] { return await running.value }
        let task = Task { await perform() }
        inFlight[session] = task
        let outcome = await task.value
        inFlight[session] = nil
        if outcome == .refreshed { generations[session] = generation(of: session) + 1 }
        return outcome
    }

    /// A relaunch forgets everything in memory.
    package func reset() {
        generations = [:]
    }
}
