/// The ways `forge_jwt(token, way)` forges a JWT: what an attacker who holds one token can make of it (RFC 7519).
/// A backend that verifies signatures refuses each. Named here so `flowspec check` can check a literal way.
package enum JWTForgery: String, Sendable, CaseIterable {
    /// The same header and claims with one signature character changed: a signature that cannot verify.
    case alteredSignature = "altered_signature"
    /// The claims changed (`exp` a year later, or an extra claim when there is no `exp`) under the original signature.
    case alteredClaims = "altered_claims"
    /// `alg: none` with the same claims and no signature: the classic bypass of libraries that trust the header.
    case unsigned

    package static let names = allCases.map(\.rawValue)
    package static let namesText = names.map { "\"\($0)\"" }.joined(separator: ", ")
}
