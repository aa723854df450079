import Testing

@testable import FlowSpecProbe

/// `logout: { flow:, answers: [...] }`: how the backend answers a logout that worked. A logout answered otherwise
/// ended nothing the probes could check, so the logout probes report an ERROR naming the status and the setting.
@Suite(.timeLimit(.minutes(5))) struct LogoutAnswerTests {
    static let logoutKinds: [ProbeKind] = [.logoutRevokes, .accessAfterLogout]

    func verdicts(logoutStatus: Int, logout: String) async throws -> [ProbeVerdict] {
        var knobs = ToyAuthBackend.Knobs()
        knobs.logoutStatus = logoutStatus
        let found = try await ToyProbe.run(knobs, probeFile: ToyFlows.probe(logout: logout), kinds: Self.logoutKinds)
            .verdicts
        #expect(found.count == 2, "\(found.described)")
        return found
    }

    @Test func anyTwoHundredByDefault() async throws {
        let found = try await verdicts(logoutStatus: 204, logout: "toy.logout")
        #expect(found.allSatisfy { $0.status == .held }, "\(found.described)")
    }

    /// Some servers answer 401 to a logout that worked: declared, it is a logout.
    @Test func aDeclaredAnswerIsALogout() async throws {
        let found = try await verdicts(logoutStatus: 401, logout: "{ flow: toy.logout, answers: [401] }")
        #expect(found.allSatisfy { $0.status == .held }, "\(found.described)")
    }

    @Test func anotherAnswerIsAnErrorNamingTheSetting() async throws {
        let found = try await verdicts(logoutStatus: 200, logout: "{ flow: toy.logout, answers: [204] }")
        #expect(
            found.allSatisfy {
                $0.status == .error && $0.detail.hasPrefix("not checked: the logout request was answered 200, not 204")
            }, "\(found.described)")
        #expect(
            found.allSatisfy { $0.detail.contains("`logout: { flow: toy.logout, answers: [200] }`") },
            "\(found.described)")
    }

    /// Where the logout leaves the access token working, the answer does not hide it: still BROKEN.
    @Test func aDeclaredAnswerDoesNotHideAnAccessTokenThatOutlivesTheLogout() async throws {
        var knobs = ToyAuthBackend.Knobs()
        knobs.logoutStatus = 204
        knobs.logoutKeepsAccess = true
        let found = try await ToyProbe.run(
            knobs, probeFile: ToyFlows.probe(logout: "{ flow: toy.logout, answers: [204] }"), kinds: Self.logoutKinds
        ).verdicts
        #expect(
            found.status(.accessAfterLogout) == .broken && found.status(.logoutRevokes) == .held, "\(found.described)")
    }
}
