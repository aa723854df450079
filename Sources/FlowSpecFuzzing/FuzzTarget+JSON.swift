import FlowSpecLanguage
import Foundation

extension FuzzTarget {
    /// The input as a response body: FlowSpec's own JSON parser must accept or reject it cleanly, and what it
    /// accepts must survive being written back out and read again (the token store file and reports write JSON).
    static func json(_ input: Data) throws(InvariantBroken) {
        switch Result(catching: { () throws(JSONSyntaxError) in try JSONValue.parsing(input) }) {
        case .failure(let error):
            if error.offset < 0 || error.offset > input.count {
                throw InvariantBroken("error offset \(error.offset) outside the \(input.count)-byte input")
            }
            _ = error.description
        case .success(let value):
            let written = value.compactJSON
            guard let reread = JSONValue.parse(written) else {
                throw InvariantBroken("its own output is not JSON: \(written.prefix(200))")
            }
            if reread != value, !containsNaNOrLossyNumber(value) {
                throw InvariantBroken("changed by a write and re-read: \(written.prefix(200))")
            }
        }
    }

    /// Numbers are doubles: 1e400 becomes infinity, which JSON cannot write back; those are not round-trip bugs.
    static func containsNaNOrLossyNumber(_ value: JSONValue) -> Bool {
        switch value {
        case .number(let n): !n.isFinite
        case .array(let items): items.contains(where: containsNaNOrLossyNumber)
        case .object(let fields): fields.values.contains(where: containsNaNOrLossyNumber)
        default: false
        }
    }
}
