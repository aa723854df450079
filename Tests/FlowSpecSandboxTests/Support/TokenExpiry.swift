@testable import FlowSpecSandbox

/// The `exp` claim of a JWT as a time, so a test can show the token really is past it.
func expiry(of token: String?) -> Double? {
    token.flatMap { claims(of: $0)["exp"]?.intValue }.map(Double.init)
}
