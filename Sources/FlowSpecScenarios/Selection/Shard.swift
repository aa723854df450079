/// `--shard K/N`: this machine's share of a suite split across N machines. Scenarios are sorted by
/// (file, name) first, so every machine computes the same partition without talking to the others;
/// scenario i (0-based) belongs to shard (i % N) + 1. Round-robin rather than contiguous blocks keeps shard
/// sizes within one of each other and spreads a folder of slow scenarios across machines.
package struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 1-based.
    package let index: Int
    package let count: Int

    package init(index: Int, count: Int) throws(ShardError) {
        guard count >= 1 else {
            throw ShardError("--shard \(index)/\(count): N, the number of shards, must be at least 1")
        }
        guard (1...count).contains(index) else {
            throw ShardError(
                "--shard \(index)/\(count): K must be between 1 and \(count) (shards are numbered 1/\(count) to \(count)/\(count))"
            )
        }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`, e.g. `2/4`.
    package static func parse(_ text: String) throws(ShardError) -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw ShardError(
                "--shard takes K/N, this machine's shard number and the number of shards (e.g. --shard 2/4), got `\(text)`"
            )
        }
        return try Shard(index: k, count: n)
    }

    /// The elements of `ordered` that belong to this shard, in their order. `ordered` must already be in the
    /// stable (file, name) order for shards on different machines to agree.
    package func select<Element>(_ ordered: [Element]) -> [Element] {
        ordered.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }

    package var description: String { "\(index)/\(count)" }
}

package struct ShardError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    init(_ message: String) { self.message = message }
    package var description: String { message }
}
