import ArgumentParser
import FlowSpecHTTP
import FlowSpecLanguage
import FlowSpecScenarios
import Foundation

/// Run variables, lowest precedence first: `--vars-file` files (several allowed, later wins), then
/// `FLOWSPEC_VAR_<name>` environment variables, then `--var`, which wins over both. The environment sits
/// between so CI can hold secrets in its secret store while a developer still overrides one with `--var`.
struct VariableOptions: ParsableArguments {
    @Option(
        name: .customLong("var"),
        help: "A run variable, name=value (repeatable; wins over FLOWSPEC_VAR_<name> and --vars-file).")
    var vars: [String] = []

    @Option(name: .customLong("vars-file"), help: "A YAML or JSON file of run variables (repeatable; later files win).")
    var varsFiles: [String] = []

    /// `FLOWSPEC_VAR_staff_email=…` is the run variable `staff_email`.
    static let environmentPrefix = "FLOWSPEC_VAR_"

    func validate() throws {
        for v in vars where !v.contains("=") || v.hasPrefix("=") {
            throw ValidationError("--var takes name=value, got `\(v)`")
        }
    }

    /// The merged variables, or exit 2 with the file's located error.
    func resolved(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        for file in varsFiles {
            switch VarsFile.load(file) {
            case .success(let vars): out.merge(vars) { $1 }
            case .failure(let diagnostic):
                Console.error(diagnostic.description)
                throw ExitCode(Exit.invalid)
            }
        }
        for (name, value) in Self.fromEnvironment(environment) { out[name] = .string(value) }
        for (name, value) in vars.map(Assignment.split) { out[name] = .string(value) }
        return out
    }

    /// The `FLOWSPEC_VAR_*` variables by run-variable name: the name verbatim after the prefix, the value a string.
    static func fromEnvironment(_ environment: [String: String]) -> [String: String] {
        var out: [String: String] = [:]
        for (key, value) in environment where key.hasPrefix(environmentPrefix) {
            let name = String(key.dropFirst(environmentPrefix.count))
            if name.isEmpty {
                Console.error(
                    "warning: the environment variable \(environmentPrefix) has no name after the prefix; ignored (write \(environmentPrefix)<name>=value)"
                )
                continue
            }
            out[name] = value
        }
        return out
    }
}

/// `name=value` from the command line (`--var`, `--input`, `--input-command`); the value may contain `=`.
enum Assignment {
    static func split(_ text: String) -> (String, String) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        return (parts[0], parts.count > 1 ? parts[1] : "")
    }
}

/// How live requests are made. Defaults are documented in docs/live.md.
struct HTTPClientOptions: ParsableArguments {
    // The defaults live in the help text (ArgumentParser would print `30.0` as well): these are optional.
    @Option(
        name: .customLong("request-timeout"), parsing: .unconditional,
        help: "Seconds a live request may take, connection included (default 30).")
    var requestTimeoutOption: Double?

    @Option(
        name: .customLong("connect-timeout"), parsing: .unconditional,
        help: "Seconds to connect to a live backend (default 10).")
    var connectTimeoutOption: Double?

    var requestTimeout: Double { requestTimeoutOption ?? 30 }
    var connectTimeout: Double { connectTimeoutOption ?? 10 }

    @Flag(help: "Skip TLS certificate verification (self-signed staging certificates). Never for production.")
    var insecure = false

    @Flag(
        help:
            "Offer HTTP/2 to https backends (default: HTTP/1.1 only, which every HTTP/2 server also speaks). A hostile HTTP/2 server can then make a run read frames until the request timeout."
    )
    var http2 = false

    @Flag(name: .customLong("follow-redirects"), help: "Follow 3xx redirects (up to 5); by default the flow sees them.")
    var followRedirects = false

    @Option(name: .customLong("max-body"), help: "Largest response body accepted, in bytes (default 10485760: 10 MiB).")
    var maxBodyOption: Int?

    var maxBody: Int { maxBodyOption ?? 10 * 1024 * 1024 }

    func validate() throws {
        // At most a day: `inf` or 1e300 would overflow the client's nanosecond timeouts and trap.
        if !(requestTimeout > 0 && requestTimeout <= 86_400) {
            throw ValidationError("--request-timeout must be a positive number of seconds, at most 86400 (a day)")
        }
        if !(connectTimeout > 0 && connectTimeout <= 86_400) {
            throw ValidationError("--connect-timeout must be a positive number of seconds, at most 86400 (a day)")
        }
        if maxBody < 1 { throw ValidationError("--max-body must be at least 1 byte") }
    }

    func liveOptions() -> LiveHTTPOptions {
        if insecure {
            Console.error(
                "warning: --insecure: TLS certificates are not verified; anyone on the network path can read these credentials"
            )
        }
        var options = LiveHTTPOptions()
        options.requestTimeout = requestTimeout
        options.connectTimeout = min(connectTimeout, requestTimeout)
        options.insecure = insecure
        options.followRedirects = followRedirects
        options.http2 = http2
        options.maxBodyBytes = maxBody
        options.environment = ProcessInfo.processInfo.environment
        return options
    }
}
