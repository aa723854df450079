import Foundation
import HostileBackend
import Testing

/// `flowspec exec` against a backend that misbehaves: it exits 3 naming the URL, within its timeout, or takes the
/// flow's `unreachable:` branch — and never crashes, hangs or prints the password it sent.
@Suite(.serialized, .timeLimit(.minutes(5))) struct HostileBackendEndToEndTests {
    static let password = "hunter2-P4ssw0rd!"
    /// A login with no `unreachable:` branch: a request that gets no HTTP answer ends the run as an infrastructure error.
    static let login = "Tests/EndToEndTests/Fixtures/flows/fixture/login.yaml"

    func exec(_ flow: String, against server: HostileServer, _ extra: [String] = []) async throws -> (
        FlowSpecBinary.Output, seconds: Double
    ) {
        defer { server.stop() }
        let clock = ContinuousClock()
        let started = clock.now
        let output = try await FlowSpecBinary.run(
            [
                "exec", flow, "--base-url", server.url,
                "--input", "email=qa@example.com", "--input", "password=\(Self.password)",
            ] + extra)
        let elapsed = clock.now - started
        return (output, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// AsyncHTTPClient 1.37.0 alone stops the process with SIGILL here (exit 132, nothing said).
    @Test func statusZeroExits3NamingTheURLAndTheCause() async throws {
        let server = try HostileServer(reply: "HTTP/1.1 000 Zero\r\nContent-Length: 0\r\n\r\n")
        let (result, _) = try await exec(Self.login, against: server)
        #expect(result.status == 3, "\(result.all)")
        #expect(
            result.all.contains(
                "POST \(server.url)/auth/login: invalid response: the server answered with status 0, "
                    + "which is not an HTTP status code (100–999)"), "\(result.all)")
        #expect(!result.all.contains(Self.password))
        #expect(server.requests.count == 1)
    }

    @Test func silenceExits3AtTheRequestTimeout() async throws {
        let server = try HostileServer([.pause(seconds: 120)])
        let (result, seconds) = try await exec(Self.login, against: server, ["--request-timeout", "2"])
        #expect(result.status == 3, "\(result.all)")
        #expect(
            result.all.contains("POST \(server.url)/auth/login: timeout: no complete response within 2 s"),
            "\(result.all)")
        #expect(!result.all.contains(Self.password))
        // Far from both the 2 s bound and the 120 s of silence: process start-up on a loaded machine takes seconds.
        #expect(seconds < 60, "\(seconds) s")
    }

    /// traveling.login has `login: unreachable: offline`: the flow goes there, and the run still says what did not answer.
    @Test func aFlowWithAnUnreachableBranchTakesItOnAGarbageAnswer() async throws {
        let server = try HostileServer(reply: "HTTP/1.1 050 Nope\r\nContent-Length: 5\r\n\r\nhello")
        let (result, _) = try await exec("traveling.login", against: server)
        #expect(result.status == 3, "\(result.all)")
        #expect(result.stdout.contains("→ login\n→ offline"), "\(result.all)")
        #expect(result.all.contains("Network error: the backend did not answer"), "\(result.all)")
        #expect(result.all.contains("invalid response: \(server.url)/v1/auth/login"), "\(result.all)")
        #expect(result.all.contains("status 50, which is not an HTTP status code"), "\(result.all)")
        #expect(!result.all.contains(Self.password))
    }
}
