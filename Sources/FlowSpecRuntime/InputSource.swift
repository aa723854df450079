import FlowSpecLanguage
import Synchronization

/// Where input values come from: a scenario's `inputs:`, `--input`, a shell command, a prompt.
package protocol InputSource: Sendable {
    /// The value last given for `input`, asking for the first one if none was given yet. nil: none available.
    func current(_ input: InputDecl, flow: String) async throws(InputError) -> String?
    /// A fresh value (the next of a list; a new prompt; the command run again). nil: none available.
    func next(_ input: InputDecl, flow: String) async throws(InputError) -> String?
}

/// A source that should have produced a value and could not: a command failed, a prompt was cancelled.
package struct InputError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// Fixed values; a list gives successive answers to successive input states. A lock, not an actor: nothing here
/// waits, and a run asks it for every input it reads.
package final class ListInputSource: InputSource, Sendable {
    private struct Lists {
        var values: [String: [String]]
        var cursor: [String: Int] = [:]

        mutating func next(_ name: String) -> String? {
            let i = (cursor[name] ?? -1) + 1
            guard let list = values[name], i < list.count else { return nil }
            cursor[name] = i
            return list[i]
        }
    }

    private let lists: Mutex<Lists>

    package init(_ values: [String: [String]]) { lists = Mutex(Lists(values: values)) }

    /// A new run reading an input takes the next unused value; when all are used, the last one again
    /// (so sub-flows and later steps see the same email unless a step gives a new one).
    package func current(_ input: InputDecl, flow: String) -> String? {
        lists.withLock { lists in
            if let fresh = lists.next(input.name) { return fresh }
            if let i = lists.cursor[input.name] { return lists.values[input.name]?[safe: i] }
            return nil
        }
    }

    package func next(_ input: InputDecl, flow: String) -> String? {
        lists.withLock { $0.next(input.name) }
    }

    /// Adds values (a scenario step's inputs) after the ones given so far.
    package func merge(_ more: [String: [String]]) {
        lists.withLock { lists in
            for (name, list) in more {
                let used = lists.cursor[name].map { $0 + 1 } ?? 0
                let kept = Array((lists.values[name] ?? []).prefix(used))
                lists.values[name] = kept + list
            }
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
