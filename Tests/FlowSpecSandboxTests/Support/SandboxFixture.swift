import Foundation
import SandboxTesting
import Testing

@testable import FlowSpecSandbox

/// A sandbox and a way to reach it for one test, in memory or over a socket (`SandboxTest`); closed when the test
/// body returns or throws.
struct SandboxFixture: Sendable {
    let backend: SandboxBackend

    var base: String { backend.baseURL }
    var legacy: String { backend.legacyURL }
    var vars: [String: String] { backend.vars }
    /// The started sandbox, for tests of its listeners: `.live` mode only, nothing listens in `.router` mode.
    var sandbox: RunningSandbox {
        guard let running = backend.running else { preconditionFailure("only a .live sandbox has listeners") }
        return running
    }

    static let mobileUA = "RepairMinder-iOS/1.0 (iPhone; iOS 17.0)"
    static let webUA = "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0"
}

/// Tests of expiry pass a `ManualSandboxClock` and advance it instead of sleeping; the rest run on the system clock.
/// `.live` (the default) serves the sandbox on loopback sockets; `.router` calls its handlers in memory.
@discardableResult
func withSandbox<T: Sendable>(
    _ mode: SandboxTestMode = .live, accounts: SandboxAccounts = .defaults,
    breaks: Set<SandboxBreak> = [], clock: any SandboxClock = .system,
    _ body: (SandboxFixture) async throws -> T
) async throws -> T {
    try await SandboxTest.run(mode, SandboxOptions(accounts: accounts, breaks: breaks, clock: clock)) { backend in
        try await body(SandboxFixture(backend: backend))
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
    func send(
        _ method: String, _ url: String, json: JSON? = nil, raw: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> Answer {
        var fields = headers.map { ($0.key, $0.value) }
        var body: [UInt8]?
        if let text = json?.serialized ?? raw {
            fields.append(("Content-Type", "application/json"))
            body = Array(text.utf8)
        }
        let answer = try await backend.exchange(method, url, headers: fields, body: body)
        var lowered: [String: String] = [:]
        for (name, value) in answer.headers { lowered[name.lowercased()] = value }
        return Answer(status: answer.status, headers: lowered, text: String(decoding: answer.body, as: UTF8.self))
    }

    func post(_ path: String, _ json: JSON? = nil, on root: String? = nil, headers: [String: String] = [:]) async throws
        -> Answer
    {
        try await send("POST", (root ?? base) + path, json: json ?? [:], headers: headers)
    }

    func get(_ path: String, on root: String? = nil, bearer: String? = nil, headers: [String: String] = [:])
        async throws
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
