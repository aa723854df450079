import AsyncHTTPClient
import Foundation
import NIOCore
import Testing

@testable import FlowSpecSandbox

/// A running sandbox and an HTTP client for one test. Both are closed when the test body returns or throws.
struct SandboxFixture: Sendable {
    let sandbox: RunningSandbox
    let http: HTTPClient

    var base: String { sandbox.baseURL }
    var legacy: String { sandbox.legacyURL }
    var vars: [String: String] { sandbox.liveVars() }

    static let mobileUA = "RepairMinder-iOS/1.0 (iPhone; iOS 17.0)"
    static let webUA = "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0"
}

/// Tests of expiry pass a `ManualSandboxClock` and advance it instead of sleeping; the rest run on the system clock.
@discardableResult
func withSandbox<T: Sendable>(accounts: SandboxAccounts = .defaults, breaks: Set<SandboxBreak> = [],
                              clock: any SandboxClock = .system,
                              _ body: (SandboxFixture) async throws -> T) async throws -> T
{
    let sandbox = try await Sandbox.start(SandboxOptions(accounts: accounts, breaks: breaks, clock: clock))
    // 50 parallel sign-ins queue for pooled connections; on a loaded 2-core machine the default 10 s wait for one
    // ran out (getConnectionFromPoolTimeout). More connections per host and a longer wait keep the test about the sandbox.
    var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(60)))
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
    let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    let fixture = SandboxFixture(sandbox: sandbox, http: http)
    do {
        let result = try await body(fixture)
        try await http.shutdown()
        await sandbox.stop()
        return result
    } catch {
        try? await http.shutdown()
        await sandbox.stop()
        throw error
    }
}

/// An HTTP answer, read whole.
struct Answer: Sendable {
    let status: Int
    /// Header names lowercased.
    let headers: [String: String]
    let text: String

    var json: JSON { JSON.parse(Array(text.utf8)) ?? .null }
    subscript(key: String) -> JSON? { json[key] }
    var error: String? { json["error"]?.stringValue }
}

extension SandboxFixture {
    func send(_ method: String, _ url: String, json: JSON? = nil, raw: String? = nil,
              headers: [String: String] = [:]) async throws -> Answer
    {
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json.serialized))
        } else if let raw {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: raw))
        }
        // A healthy sandbox answers in milliseconds; the whole suite on two cores (50 parallel sign-ins among
        // hundreds of other tests) once needed more than 10 s just to get a pooled connection.
        let response = try await http.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 1 << 20)
        var fields: [String: String] = [:]
        for header in response.headers { fields[header.name.lowercased()] = header.value }
        return Answer(status: Int(response.status.code), headers: fields, text: String(buffer: body))
    }

    func post(_ path: String, _ json: JSON? = nil, on root: String? = nil, headers: [String: String] = [:]) async throws -> Answer {
        try await send("POST", (root ?? base) + path, json: json ?? [:], headers: headers)
    }

    func get(_ path: String, on root: String? = nil, bearer: String? = nil, headers: [String: String] = [:]) async throws
        -> Answer
    {
        var headers = headers
        if let bearer { headers["Authorization"] = "Bearer \(bearer)" }
        return try await send("GET", (root ?? base) + path, headers: headers)
    }

    /// The latest code the outbox holds for `address`, through the public outbox endpoint.
    func latestCode(to address: String) async throws -> String {
        let encoded = address.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? address
        let answer = try await get("/__sandbox/outbox/latest?to=\(encoded)")
        try #require(answer.status == 200, "no code in the outbox for \(address): \(answer.status) \(answer.text)")
        return answer.text
    }
}

/// The claims of a JWT, read without checking the signature (the tests check what the server put in).
func claims(of token: String) -> JSON {
    let parts = token.split(separator: ".")
    guard parts.count == 3, let bytes = Base64URL.decode(String(parts[1])) else { return .null }
    return JSON.parse(bytes) ?? .null
}

/// `token` with one character of its signature changed.
func tampered(_ token: String) -> String {
    var characters = Array(token)
    let index = characters.count - 3
    characters[index] = characters[index] == "A" ? "B" : "A"
    return String(characters)
}

/// The default accounts with some settings changed.
func accounts(_ change: (inout SandboxAccounts) -> Void) -> SandboxAccounts {
    var accounts = SandboxAccounts.defaults
    change(&accounts)
    return accounts
}
