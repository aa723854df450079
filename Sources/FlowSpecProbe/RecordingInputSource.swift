import FlowSpecLanguage
import FlowSpecRuntime
import Synchronization

/// Remembers the values given for code inputs, so the one-time-codes probe can offer an accepted code again.
final class RecordingInputSource: InputSource {
    let inner: any InputSource
    private let codes = Mutex<[(name: String, value: String)]>([])

    /// Told each value as it is handed out.
    let observe: @Sendable (InputDecl, String) -> Void

    init(_ inner: any InputSource, observe: @escaping @Sendable (InputDecl, String) -> Void = { _, _ in }) {
        self.inner = inner
        self.observe = observe
    }

    /// The last value given for each code input.
    var codeValues: [String: String] {
        codes.withLock { Dictionary($0.map { ($0.name, $0.value) }) { _, last in last } }
    }
    /// Every value given for a code input, in order (a flow that asks again after a refused code asks twice).
    var codeHistory: [(name: String, value: String)] { codes.withLock { $0 } }

    func current(_ input: InputDecl, flow: String) async throws(InputError) -> String? {
        remember(input, try await inner.current(input, flow: flow))
    }

    func next(_ input: InputDecl, flow: String) async throws(InputError) -> String? {
        remember(input, try await inner.next(input, flow: flow))
    }

    private func remember(_ input: InputDecl, _ value: String?) -> String? {
        if let value { observe(input, value) }
        if input.kind == .code, let value { codes.withLock { $0.append((input.name, value)) } }
        return value
    }
}
