import Foundation

/// Drains a pipe on a thread of its own — never one of Swift's cooperative threads, which are as few as the
/// cores — so a child that fills its pipe never blocks. Used by shell inputs and by the end-to-end tests.
/// Safe to share: `data` is written once by the reading thread before it signals `done`, and read only after
/// `wait()` has received that signal, so the semaphore orders every access.
package final class PipeReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    package init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Everything the pipe carried, once the writer closed it.
    package func wait() -> Data {
        done.wait()
        return data
    }
}
