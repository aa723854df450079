import ArgumentParser
import FlowSpecLanguage

/// `--allow-wait 20m`: how long a live run may really wait. Parsed once, as the option's own type.
struct WaitAllowance: ExpressibleByArgument, Sendable {
    var seconds: Double

    init(seconds: Double) { self.seconds = seconds }

    init?(argument: String) {
        // More than ten years is no limit anyone means, and it keeps every later conversion in range.
        guard let seconds = Durations.parse(argument), seconds <= 10 * 365 * 86400 else { return nil }
        self.seconds = seconds
    }

    var defaultValueDescription: String { "60s" }

    static let help: ArgumentHelp = ArgumentHelp(
        "The longest a live run may wait (`wait:` steps and states), e.g. 20m, 90s, 1h. A longer wait skips the scenario with the reason, never passes it.",
        valueName: "duration")
}
