import FlowSpecLanguage
import Foundation
import FuzzSupport

/// The input as a response body: FlowSpec's own JSON parser must accept or reject it cleanly, and what it accepts
/// must survive being written back out and read again (the token store file and reports write JSON).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    switch Result(catching: { () throws(JSONSyntaxError) in try JSONValue.parsing(Fuzz.bytes(data, size)) }) {
    case .failure(let error):
        if error.offset < 0 || error.offset > size {
            Fuzz.fail("error offset \(error.offset) outside the \(size)-byte input")
        }
        _ = error.description
    case .success(let value):
        let written = value.compactJSON
        guard let reread = JSONValue.parse(written) else {
            Fuzz.fail("its own output is not JSON: \(written.prefix(200))")
        }
        if reread != value, !containsNaNOrLossyNumber(value) {
            Fuzz.fail("changed by a write and re-read: \(written.prefix(200))")
        }
    }
    return 0
}

/// Numbers are doubles: 1e400 becomes infinity, which JSON cannot write back; those are not round-trip bugs.
func containsNaNOrLossyNumber(_ value: JSONValue) -> Bool {
    switch value {
    case .number(let n): !n.isFinite
    case .array(let items): items.contains(where: containsNaNOrLossyNumber)
    case .object(let fields): fields.values.contains(where: containsNaNOrLossyNumber)
    default: false
    }
}
