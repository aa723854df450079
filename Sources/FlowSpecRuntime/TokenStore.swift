import FlowSpecLanguage
import Foundation
import Synchronization

/// Named values (access and refresh tokens, expiry, role…) in namespaces, shared by every flow of a run.
/// Credentials that enter the store are registered as secrets (see `Redactor.registerStored`).
package final class TokenStore: Sendable {
    package typealias Snapshot = [String: [String: JSONValue]]

    // A lock, not an actor: no operation waits, and a run reads its namespace at every step (an actor hop each time).
    private let namespaces: Mutex<Snapshot>
    private let redactor: Redactor

    package init(_ initial: Snapshot = [:], redactor: Redactor) {
        namespaces = Mutex(initial.filter { !$0.value.isEmpty })
        self.redactor = redactor
        for values in initial.values { for (key, value) in values { redactor.registerStored(key, value) } }
    }

    package func get(_ namespace: String, _ key: String) -> JSONValue {
        namespaces.withLock { $0[namespace]?[key] ?? .null }
    }

    package func namespace(_ name: String) -> [String: JSONValue] { namespaces.withLock { $0[name] ?? [:] } }

    /// Registers credential-like values with the redactor before storing them.
    package func set(_ namespace: String, _ key: String, _ value: JSONValue) {
        redactor.registerStored(key, value)
        if value.isNull {
            delete(namespace, key)
        } else {
            namespaces.withLock { $0[namespace, default: [:]][key] = value }
        }
    }

    package func delete(_ namespace: String, _ key: String) {
        namespaces.withLock { namespaces in
            namespaces[namespace]?[key] = nil
            if namespaces[namespace]?.isEmpty == true { namespaces[namespace] = nil }
        }
    }

    package func clear(_ namespace: String) { namespaces.withLock { $0[namespace] = nil } }

    package func snapshot() -> Snapshot { namespaces.withLock { $0 } }

    /// Replaces everything (a reset to a snapshot); values are registered as secrets as `set` does.
    package func replace(with snapshot: Snapshot) {
        namespaces.withLock { $0 = snapshot.filter { !$0.value.isEmpty } }
        for values in snapshot.values { for (key, value) in values { redactor.registerStored(key, value) } }
    }
}

/// The store's file format: `{"namespace": {"key": value}}`, written atomically with mode 0600.
package enum TokenStoreFile {
    /// The largest store file loaded. A store holds a few sessions' tokens, kilobytes; this is about a thousand
    /// times that. Every value in it is registered as a secret, so a much larger file (a wrong path, or a store
    /// grown without bound) would take minutes and gigabytes to load instead of failing clearly.
    package static let maxBytes = 4 << 20

    /// Why the store file at `path` is not loaded, when it is larger than `maxBytes` (checked before reading it).
    package static func sizeProblem(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_size > maxBytes else { return nil }
        return
            "the token store \(path) holds \(info.st_size) bytes, more than the \(maxBytes >> 20) MiB a store may hold; "
            + "it is not a store of a few sessions' tokens: delete it or pass another --store"
    }

    package static func encode(_ snapshot: TokenStore.Snapshot) -> Data {
        JSONValue.object(snapshot.mapValues { JSONValue.object($0) }).prettyJSON.data(using: .utf8)! + Data("\n".utf8)
    }

    package static func decode(_ data: Data) -> TokenStore.Snapshot? {
        guard case .object(let namespaces)? = JSONValue.parse(data) else { return nil }
        var out: TokenStore.Snapshot = [:]
        for (name, value) in namespaces {
            guard case .object(let values) = value else { return nil }
            out[name] = values
        }
        return out
    }

    /// The store saved at `path`, empty when there is no file yet; the error says what is wrong and how to go on.
    package static func read(at path: String) throws(TokenStoreFileError) -> TokenStore.Snapshot {
        guard FileManager.default.fileExists(atPath: path) else { return [:] }
        if let problem = sizeProblem(at: path) { throw TokenStoreFileError(description: problem) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TokenStoreFileError(description: "cannot read the token store \(path)")
        }
        guard let snapshot = decode(data) else {
            throw TokenStoreFileError(
                description:
                    "\(path) is not a FlowSpec token store (a JSON object of namespaces, each an object of keys); "
                    + "delete it or pass another --store")
        }
        return snapshot
    }

    /// Writes to a temporary file beside `path`, then renames it over: a reader never sees half a file.
    package static func write(_ snapshot: TokenStore.Snapshot, to path: String) throws {
        try AtomicFile.write(encode(snapshot), to: path, permissions: 0o600)
    }
}

package struct TokenStoreFileError: Error, Sendable, CustomStringConvertible {
    package var description: String
}
