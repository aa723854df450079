/// A sandbox that could not start listening.
package struct SandboxStartError: Error, CustomStringConvertible {
    package let host: String
    package let port: Int
    package let legacyPort: Int
    package let underlying: String

    package var description: String {
        "The sandbox could not listen on \(host) (port \(port == 0 ? "any" : String(port)), legacy port "
            + "\(legacyPort == 0 ? "any" : String(legacyPort))): \(underlying)"
    }
}
