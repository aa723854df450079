import FlowSpecLanguage
import FlowSpecRuntime
import Synchronization

/// Remembers the values given for code inputs, so the one-time-codes probe can offer an accepted code again.
final class RecordingInputSource: InputSource {
    let inner: any InputSource
    private let codes = Mutex<[String: String]>([:])

    init(_ inner: any InputSource) { self.inner = inner }

    var codeValues: [String: String] { codes.withLock { $0 } }

    func current(_ input: InputDecl, flow: String) async throws(InputError) -> String? {
        remember(input, try await inner.current(input, flow: flow))
    }

    func next(_ input: InputDecl, flow: String) async throws(InputError) -> String? {
        remember(input, try await inner.next(input, flow: flow))
    }

    private func remember(_ input: InputDecl, _ value: String?) -> String? {
        if input.kind == .code, let value { codes.withLock { $0[input.name] = value } }
        return value
    }
}
