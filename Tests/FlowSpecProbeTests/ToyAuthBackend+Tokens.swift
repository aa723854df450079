import Foundation

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

/// The toy's tokens: a signed JWT access token (or an opaque one) and a rotating refresh token per family, the
/// refresh with its reuse detection, the endpoints that check the access token, and logout.
extension ToyAuthBackend {
    /// A new family for `email`: an access and a refresh token.
    func issue(for email: String) -> HTTPResponse {
        sequence += 1
        families[sequence] = email
        return issue(family: sequence, parent: nil)
    }

    func issue(family: Int, parent: String?) -> HTTPResponse {
        sequence += 1
        // Long and random after its prefix, as real ones are: half of it is no word of the probe's messages.
        let refresh =
            "refresh-\(family)-\(sequence)-"
            + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(24).lowercased()
        refreshTokens[refresh] = (family, false, parent)
        return reply(200, answer(family: family, refresh: refresh))
    }

    func answer(family: Int, refresh: String) -> [String: Any] {
        var body: [String: Any] = ["access": accessToken(family: family)]
        if knobs.issueRefreshTokens { body["refresh"] = refresh }
        if knobs.statesLifetime {
            body["expires_in"] = knobs.accessLifetime
            body["refresh_expires_in"] = knobs.refreshLifetime
        }
        return body
    }

    func accessToken(family: Int) -> String {
        guard knobs.jwt else {
            let token = "opaque-\(family)-\(sequence)"
            opaqueIssued[token] = Date().timeIntervalSince1970
            return token
        }
        let header = JWT.base64URLEncode(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let now = Date().timeIntervalSince1970
        let iat = knobs.iat ? #","iat":\#(now)"# : ""
        let payload = JWT.base64URLEncode(
            Data(
                #"{"sub":"\#(families[family] ?? "")","fam":\#(family)\#(iat),"exp":\#(now + knobs.accessLifetime)}"#
                    .utf8))
        return "\(header).\(payload).\(signature(header, payload))"
    }

    func signature(_ header: String, _ payload: String) -> String {
        JWT.base64URLEncode(Data("sig:\(header).\(payload)".utf8.reversed()))
    }

    /// Whether a refresh token has the toy's shape: `refresh-FAMILY-SEQUENCE-` and 24 characters.
    static func wellFormed(_ token: String) -> Bool {
        let parts = token.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "refresh" && Int(parts[1]) != nil && Int(parts[2]) != nil
            && parts[3].count == 24
    }

    func refresh(_ request: HTTPRequest) async -> HTTPResponse {
        if knobs.refreshRefusesAll { return reply(401, ["error": "refresh is unavailable"]) }
        let token = field(request, "refresh")
        if knobs.crashOnMalformedRefresh, !Self.wellFormed(token ?? "") {
            return reply(500, ["error": "internal server error"])
        }
        let selector = { (token: String) in token.split(separator: "-").prefix(3).joined(separator: "-") }
        let key =
            knobs.reuseBySelector
            ? token.flatMap { t in refreshTokens.keys.first { selector($0) == selector(t) } } : token
        guard let token, let key, let entry = refreshTokens[key], !revokedFamilies.contains(entry.family) else {
            return reply(401, ["error": "invalid refresh token"])
        }
        if key != token, !(entry.revoked && knobs.detectReuse) { return reply(401, ["error": "invalid refresh token"]) }
        if knobs.raceOnRefresh { await Task.yield(); try? await Task.sleep(for: .milliseconds(5)) }
        let current = refreshTokens[key]!
        if current.revoked && !knobs.raceOnRefresh {
            if knobs.parentOfActiveGrace,
                let active = refreshTokens.first(where: { $0.value.parent == token && !$0.value.revoked })
            {
                return reply(200, answer(family: current.family, refresh: active.key))
            }
            if knobs.detectReuse {
                if knobs.revokeFamily {
                    revokedFamilies.insert(current.family)
                    endedAccess.insert(current.family)
                }
                return reply(401, ["error": "reuse detected"])
            }
        }
        guard knobs.rotate else { return reply(200, answer(family: current.family, refresh: token)) }
        refreshTokens[token]?.revoked = true
        return issue(family: current.family, parent: token)
    }

    /// The family and account of a good access token in the Authorization header; nil for anything else.
    func bearer(_ request: HTTPRequest) -> (family: Int, email: String)? {
        guard let header = request.header("Authorization"), header.hasPrefix("Bearer ") else { return nil }
        let parts = header.dropFirst(7).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let family: Int
        if !knobs.jwt {
            let opaque = header.dropFirst(7).split(separator: "-")
            guard opaque.count == 3, opaque[0] == "opaque", let f = Int(opaque[1]),
                let issued = opaqueIssued[String(header.dropFirst(7))]
            else { return nil }
            if !knobs.acceptExpired, issued + knobs.accessLifetime < Date().timeIntervalSince1970 { return nil }
            family = f
        } else {
            guard parts.count == 3, let payload = JWT.base64URLDecode(parts[1]),
                let claims = try? JSONSerialization.jsonObject(with: payload) as? [String: Any],
                let f = claims["fam"] as? Int, let exp = claims["exp"] as? Double
            else { return nil }
            let unsigned =
                parts[2].isEmpty
                && (JWT.base64URLDecode(parts[0]).map { String(decoding: $0, as: UTF8.self).contains("none") } ?? false)
            if unsigned {
                guard knobs.acceptUnsigned else { return nil }
            } else if knobs.verifySignature, parts[2] != signature(parts[0], parts[1]) {
                return nil
            }
            if !knobs.acceptExpired, exp < Date().timeIntervalSince1970 { return nil }
            family = f
        }
        guard !endedAccess.contains(family), let email = families[family],
            knobs.deactivationKeepsTokens || !isDeactivated(email)
        else { return nil }
        return (family, email)
    }

    /// The staff endpoint: staff tokens only.
    func me(_ request: HTTPRequest) -> HTTPResponse {
        if knobs.meRefusesAll { return reply(knobs.refusal, ["error": "unauthorized"]) }
        guard let who = bearer(request), Self.accounts[who.email]?.role == .staff || knobs.customerOpensStaff else {
            return reply(knobs.refusal, ["error": "unauthorized"])
        }
        return reply(200, ["email": who.email])
    }

    /// The customer endpoint: customer tokens only.
    func customerMe(_ request: HTTPRequest) -> HTTPResponse {
        guard !knobs.customerMeRefusesAll, let who = bearer(request), Self.accounts[who.email]?.role == .customer else {
            return reply(401, ["error": "unauthorized"])
        }
        return reply(200, ["email": who.email])
    }

    /// Ends the family's refresh tokens (`logoutRevokes`) and its access tokens (unless `logoutKeepsAccess`), and
    /// answers `logoutStatus`.
    func logout(_ request: HTTPRequest) -> HTTPResponse {
        guard let who = bearer(request) else { return reply(401, ["error": "unauthorized"]) }
        if knobs.logoutRevokes { revokedFamilies.insert(who.family) }
        if !knobs.logoutKeepsAccess { endedAccess.insert(who.family) }
        return reply(knobs.logoutStatus, ["success": true])
    }
}
