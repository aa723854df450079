import Foundation

/// The fuzz targets: what each does with one input lives in `FuzzTarget+<name>.swift`. The libFuzzer binaries in
/// `Fuzz/` are thin shims over `fuzz(_:_:)`, so the harness is built, and its stored reproducers replayed, by the
/// main package's `swift test` as well (the fuzz package alone links with `-sanitize=fuzzer`).
public enum FuzzTarget: String, CaseIterable, Sendable {
    case flow, scenario, expression, template, json, accounts, response

    /// Runs one input. Errors of the code under test (diagnostics, refusals) are fine and ignored; a broken
    /// invariant throws.
    public func run(_ input: Data) async throws(InvariantBroken) {
        switch self {
        case .response: try await Self.response(input)
        default: try runSynchronously(input)
        }
    }

    /// The targets that need no concurrency, run on the caller's thread: libFuzzer calls them hundreds of
    /// thousands of times, and a task per input would be most of the time.
    func runSynchronously(_ input: Data) throws(InvariantBroken) {
        switch self {
        case .flow: Self.flow(input)
        case .scenario: try Self.scenario(input)
        case .expression: Self.expression(input)
        case .template: Self.template(input)
        case .json: try Self.json(input)
        case .accounts: Self.accounts(input)
        case .response:
            let input = input
            let outcome = FuzzInput.block { () async -> InvariantBroken? in
                do throws(InvariantBroken) {
                    try await Self.response(input)
                    return nil
                } catch { return error }
            }
            if let outcome { throw outcome }
        }
    }

    /// libFuzzer's `LLVMFuzzerTestOneInput`: runs the input and aborts on a broken invariant, so libFuzzer
    /// records the input as a crash. libFuzzer's thread is not one of Swift's, so waiting on it for the response
    /// target's run cannot starve the cooperative pool.
    public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        do {
            try runSynchronously(FuzzInput.bytes(data, size))
        } catch {
            FileHandle.standardError.write(Data("FUZZ INVARIANT BROKEN: \(error.description)\n".utf8))
            abort()
        }
        return 0
    }
}
