import Foundation
import Synchronization

/// Work spread over the cores whose results come back in order: loading uses it so that doing files (or a large
/// flow's states) in parallel never changes which definition wins or the order of messages.
package enum SideBySide {
    /// A flow with more states than this is decoded, checked and compiled in parts side by side; a smaller one
    /// costs less done in one piece than the threads would cost to start.
    package static let largeFlowStates = 64

    /// `transform(0)`, `transform(1)`, … `transform(count - 1)`, computed side by side, in index order.
    package static func map<T: Sendable>(count: Int, _ transform: @Sendable (Int) -> T) -> [T] {
        guard count > 1 else { return (0..<count).map(transform) }
        let results = Mutex([T?](repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let value = transform(index)
            results.withLock { $0[index] = value }
        }
        // concurrentPerform has run every index before it returns, so none is left nil.
        return results.withLock { $0 }.compactMap { $0 }
    }
}
