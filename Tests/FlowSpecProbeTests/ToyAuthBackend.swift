import Foundation
@testable import FlowSpecLanguage
@testable import FlowSpecRuntime
@testable import FlowSpecProbe

/// A small token backend in memory, with a knob for each promise the probes check, so every probe kind can be
/// seen to hold on a faithful backend and break on a faulty one without a network.
actor ToyAuthBackend: HTTPAdapter {
    struct Knobs: Sendable {
        var rotate = true
        var detectReuse = true
        var revokeFamily = true
        var parentOfActiveGrace = false
        var logoutRevokes = true
        var verifySignature = true
        var acceptUnsigned = false
        var codesSingleUse = true
        var acceptExpired = false
        /// Concurrent refreshes of one token all succeed with different tokens (a check-then-act race).
        var raceOnRefresh = false
        var accessLifetime = 3600.0
        var refusal = 401
        var jwt = true
    }

    let knobs: Knobs
    private var sequence = 0
    /// refresh token → (family, revoked, parent)
    private var refreshTokens: [String: (family: Int, revoked: Bool, parent: String?)] = [:]
    private var revokedFamilies: Set<Int> = []
    private var codes: [String: Bool] = [:]
    private(set) var refreshRequests = 0

    init(_ knobs: Knobs = Knobs()) { self.knobs = knobs }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        switch request.path {
        case "/login": return login()
        case "/verify": return verify(request)
        case "/refresh": return await refresh(request)
        case "/me": return me(request)
        case "/logout": return logout(request)
        default: return reply(404, ["error": "not found"])
        }
    }

    private func reply(_ status: Int, _ object: [String: Any]) -> HTTPResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: data)
    }

    /// Every login sends the code 123456 again (a fixed code keeps the scripted input simple); it is good once.
    private func login() -> HTTPResponse {
        codes[ToyAuthBackend.code] = false
        return reply(200, ["sent": true])
    }

    static let code = "123456"

    private func verify(_ request: HTTPRequest) -> HTTPResponse {
        guard case .string(let code)? = request.json?["code"], let used = codes[code] else { return reply(401, ["error": "bad code"]) }
        if used, knobs.codesSingleUse { return reply(401, ["error": "code used"]) }
        codes[code] = true
        sequence += 1
        return issue(family: sequence, parent: nil)
    }

    private func issue(family: Int, parent: String?) -> HTTPResponse {
        sequence += 1
        let refresh = "refresh-\(family)-\(sequence)"
        refreshTokens[refresh] = (family, false, parent)
        return reply(200, ["access": accessToken(family: family), "refresh": refresh])
    }

    private func accessToken(family: Int) -> String {
        guard knobs.jwt else { return "opaque-\(family)-\(sequence)" }
        let header = JWT.base64URLEncode(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let exp = Date().timeIntervalSince1970 + knobs.accessLifetime
        let payload = JWT.base64URLEncode(Data(#"{"fam":\#(family),"exp":\#(exp)}"#.utf8))
        return "\(header).\(payload).\(signature(header, payload))"
    }

    private func signature(_ header: String, _ payload: String) -> String {
        JWT.base64URLEncode(Data("sig:\(header).\(payload)".utf8.reversed()))
    }

    private func refresh(_ request: HTTPRequest) async -> HTTPResponse {
        refreshRequests += 1
        guard case .string(let token)? = request.json?["refresh"], let entry = refreshTokens[token], !revokedFamilies.contains(entry.family) else {
            return reply(401, ["error": "invalid refresh token"])
        }
        if knobs.raceOnRefresh { await Task.yield(); try? await Task.sleep(for: .milliseconds(5)) }
        let current = refreshTokens[token]!
        if current.revoked && !knobs.raceOnRefresh {
            if knobs.parentOfActiveGrace, let active = refreshTokens.first(where: { $0.value.parent == token && !$0.value.revoked }) {
                return reply(200, ["access": accessToken(family: current.family), "refresh": active.key])
            }
            if knobs.detectReuse {
                if knobs.revokeFamily { revokedFamilies.insert(current.family) }
                return reply(401, ["error": "reuse detected"])
            }
        }
        guard knobs.rotate else { return reply(200, ["access": accessToken(family: current.family), "refresh": token]) }
        refreshTokens[token]?.revoked = true
        return issue(family: current.family, parent: token)
    }

    private func validAccess(_ request: HTTPRequest) -> Int? {
        guard let header = request.header("Authorization"), header.hasPrefix("Bearer ") else { return nil }
        let parts = header.dropFirst(7).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let payload = JWT.base64URLDecode(parts[1]),
              let claims = try? JSONSerialization.jsonObject(with: payload) as? [String: Any],
              let family = claims["fam"] as? Int, let exp = claims["exp"] as? Double else {
            if !knobs.jwt, header.hasPrefix("Bearer opaque-") { return Int(header.split(separator: "-")[1]) }
            return nil
        }
        let unsigned = parts[2].isEmpty && (JWT.base64URLDecode(parts[0]).map { String(decoding: $0, as: UTF8.self).contains("none") } ?? false)
        if unsigned { guard knobs.acceptUnsigned else { return nil } }
        else if knobs.verifySignature, parts[2] != signature(parts[0], parts[1]) { return nil }
        if !knobs.acceptExpired, exp < Date().timeIntervalSince1970 { return nil }
        return revokedFamilies.contains(family) ? nil : family
    }

    private func me(_ request: HTTPRequest) -> HTTPResponse {
        validAccess(request) == nil ? reply(knobs.refusal, ["error": "unauthorized"]) : reply(200, ["ok": true])
    }

    private func logout(_ request: HTTPRequest) -> HTTPResponse {
        guard let family = validAccess(request) else { return reply(401, ["error": "unauthorized"]) }
        if knobs.logoutRevokes { revokedFamilies.insert(family) }
        return reply(200, ["success": true])
    }
}
