import Foundation
import FlowSpecSandbox
import FuzzSupport

/// The input as a sandbox accounts file (`flowspec sandbox --accounts FILE`): read as YAML or JSON, every section
/// decoded and cross-checked. Errors must be `SandboxAccountsError`s that print; anything else is a failure.
/// The loader only reads files, so the input goes through one file per process (in the temporary folder).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = NSTemporaryDirectory() + "flowspec-fuzz-accounts-\(getpid()).yaml"
    guard FileManager.default.createFile(atPath: path, contents: Fuzz.bytes(data, size)) else { Fuzz.fail("cannot write \(path)") }
    do {
        let accounts = try SandboxAccounts.load(path: path)
        _ = accounts.staff.count
    } catch let error as SandboxAccountsError {
        _ = error.description
    } catch {
        Fuzz.fail("not a SandboxAccountsError: \(error)")
    }
    return 0
}
