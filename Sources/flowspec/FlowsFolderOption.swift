import ArgumentParser

/// `--flows`, for every command that finds its flows the usual way (`check` words it for scenarios instead).
struct FlowsFolderOption: ParsableArguments {
    @Option(help: "The flows folder (default: the nearest flows/ folder).")
    var flows: String?
}
