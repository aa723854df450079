import FlowSpecLanguage
import FlowSpecRuntime
import Foundation
import HostileBackend
import Testing

@testable import FlowSpecHTTP

/// The plain-HTTP client against AsyncHTTPClient as the oracle: the same bytes from a server must give the same
/// verdict through both — the same status, headers and body, or a failure of the same kind. The answers are
/// well-formed responses of every framing, and seeded mutations of them (cut short, a byte changed, bytes inserted or
/// doubled), which is where a hand-made reading of a response would part from the real client's.
@Suite(.serialized, .timeLimit(.minutes(5))) struct ClientAgreementTests {
    static let answers: [[UInt8]] =
        [
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 17\r\n\r\n{\"token\":\"abc12\"}",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nread until the server closes",
            "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nan HTTP/1.0 body ends at the close",
            "HTTP/1.1 204 No Content\r\nX-Request-Id: 42\r\n\r\n",
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok",
            "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 302 Found\r\nLocation: /next\r\nContent-Length: 5\r\n\r\nmoved",
            "HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Length: 3\r\n\r\nabc",
        ].map { Array($0.utf8) } + [
            Array(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: 31\r\n\r\n"
                    .utf8)
                + [
                    31, 139, 8, 0, 0, 0, 0, 0, 2, 255, 171, 86, 202, 207, 86, 178, 42, 41, 42, 77, 173, 5, 0, 144, 95,
                    212, 167, 11, 0, 0, 0,
                ]
        ]

    /// What a request came to, in terms a flow can tell apart.
    enum Verdict: Equatable, CustomStringConvertible {
        case response(status: Int, headers: [String], body: [UInt8])
        case failure(TransportError.Kind)

        init(_ result: Result<FlowSpecRuntime.HTTPResponse, TransportError>) {
            switch result {
            case .success(let r):
                self = .response(status: r.status, headers: r.headers.map { "\($0.0): \($0.1)" }, body: Array(r.body))
            case .failure(let e): self = .failure(e.kind)
            }
        }

        var description: String {
            switch self {
            case .response(let status, let headers, let body):
                "\(status) \(headers) \(String(decoding: body, as: UTF8.self).debugDescription)"
            case .failure(let kind): "failure: \(kind)"
            }
        }
    }

    func verdict(of answer: [UInt8], via route: Route) async throws -> Verdict {
        let server = try HostileServer([.send(answer)])
        defer { server.stop() }
        var options = LiveHTTPOptions()
        options.requestTimeout = 10
        let adapter = LiveHTTPAdapter(options: options)
        let result = await route.sendPlainHTTP(
            HTTPRequest(method: "GET", baseURL: server.url, path: "/x"), with: adapter)
        await adapter.shutdown()
        return Verdict(result)
    }

    func expectAgreement(_ answer: [UInt8], _ note: String, sourceLocation: Testing.SourceLocation = #_sourceLocation)
        async throws
    {
        let plain = try await verdict(of: answer, via: .plain)
        let pooled = try await verdict(of: answer, via: .pooled)
        #expect(
            plain == pooled, "\(note): \(String(decoding: answer, as: UTF8.self).debugDescription)",
            sourceLocation: sourceLocation)
    }

    @Test func wellFormedAnswersReadTheSame() async throws {
        for (index, answer) in Self.answers.enumerated() { try await expectAgreement(answer, "answer \(index)") }
    }

    @Test(arguments: 1...4)
    func mutatedAnswersReadTheSame(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        for round in 0..<100 {
            var answer = Self.answers[Int(random.next() % UInt64(Self.answers.count))]
            let at = Int(random.next() % UInt64(answer.count))
            switch random.next() % 4 {
            case 0: answer.removeSubrange(at...)
            case 1: answer[at] = UInt8(truncatingIfNeeded: random.next())
            case 2:
                answer.insert(
                    contentsOf: [
                        UInt8(ascii: "\r"), UInt8(ascii: "\n"), UInt8(truncatingIfNeeded: random.next() % 128),
                    ], at: at)
            default: answer.insert(contentsOf: answer[at..<min(answer.count, at + 12)], at: at)
            }
            try await expectAgreement(answer, "seed \(seed) round \(round)")
        }
    }
}
