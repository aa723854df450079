import Foundation

extension JSON {
    /// A request field as non-empty text (surrounding spaces trimmed), or nil when missing, empty or not a string.
    func text(_ key: String) -> String? {
        guard let value = self[key]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
            return nil
        }
        return value
    }

    /// Removes `key` from an object (used by breaks that drop a promised field).
    func removing(_ key: String) -> JSON {
        guard case .object(var fields) = self else { return self }
        fields[key] = nil
        return .object(fields)
    }

    /// Adds or replaces fields of an object.
    func merging(_ other: [String: JSON]) -> JSON {
        guard case .object(var fields) = self else { return self }
        fields.merge(other) { _, new in new }
        return .object(fields)
    }
}
