/// A sandbox that could not start listening.
public struct SandboxStartError: Error, CustomStringConvertible {
    public let host: String
    public let port: Int
    public let legacyPort: Int
    public let underlying: String

    public var description: String {
        "The sandbox could not listen on \(host) (port \(port == 0 ? "any" : String(port)), legacy port "
            + "\(legacyPort == 0 ? "any" : String(legacyPort))): \(underlying)"
    }
}
