import Foundation
import Synchronization
import FlowSpecLanguage

/// Masks secrets in everything a run shows. Values are registered as they appear — secret inputs, everything
/// written to or loaded into the token store — so masking follows the data, not a list of field names.
public final class Redactor: Sendable {
    public static let mask = "••••"
    private let secrets = Mutex<Set<String>>([])

    public init() {}

    /// Short values (under 4 characters) are not masked by value: masking every "1" would garble output.
    public func register(_ value: String) {
        guard value.count >= 4 else { return }
        secrets.withLock { _ = $0.insert(value) }
        if value.hasPrefix("Bearer ") { register(String(value.dropFirst(7))) }
    }

    /// Registers values already known to be secret (collected once, e.g. from a scenario file) under one lock.
    public func register(known values: Set<String>) {
        secrets.withLock { $0.formUnion(values) }
    }

    /// Everything registered so far.
    public var registeredValues: Set<String> { secrets.withLock { $0 } }

    public func register(_ value: JSONValue) {
        switch value {
        case .string(let s): register(s)
        case .array(let items): items.forEach { register($0) }
        case .object(let fields): fields.values.forEach { register($0) }
        default: break
        }
    }

    /// A value entering the token store is a secret when its key names a credential (`access_token`,
    /// `refresh_token`, `token`, `api_key`…) or when it is a long opaque string (20+ characters, no spaces),
    /// as tokens are; ordinary values such as a role, an id or an expiry stay readable in reports.
    public func registerStored(_ key: String, _ value: JSONValue) {
        if case .string(let s) = value, Redactor.looksLikeErrorCode(s) { return }
        if Redactor.isSensitiveKey(key) || key.lowercased().contains("session") {
            register(value)
        } else if case .string(let s) = value, s.count >= 20, !s.contains(" "), !Redactor.isUUID(s), !Redactor.isTimestamp(s) {
            register(s)
        }
    }

    public func redact(_ text: String) -> String {
        let known = secrets.withLock { $0 }
        guard !known.isEmpty else { return text }
        var out = text
        // Longest first, so a token containing a shorter secret is masked whole.
        for secret in known.sorted(by: { $0.count > $1.count }) where out.contains(secret) {
            out = out.replacingOccurrences(of: secret, with: Redactor.mask)
        }
        return out
    }

    static let sensitiveHeaders: Set<String> = ["authorization", "cookie", "set-cookie", "apikey", "x-api-key", "proxy-authorization"]
    static let sensitiveKeyParts = ["token", "password", "secret", "code", "otp", "jwt", "apikey", "api_key"]
    static let sensitiveKeyPartBytes = sensitiveKeyParts.map { Array($0.utf8) }

    public static func isSensitiveHeader(_ name: String) -> Bool { sensitiveHeaders.contains(name.lowercased()) }

    /// Ids (user, company, session family) are UUIDs; a credential under an id-like key is rare, and one
    /// under a credential key is masked by its key anyway.
    static func isUUID(_ s: String) -> Bool {
        s.count == 36 && (try? RegexCache.uuid.wholeMatch(s)) == true
    }

    /// Run variables that hold credentials (`staff_password`, `phone_otp`, `supabase_anon_key`…); a
    /// `*_command` is a recipe for fetching a code, not a secret, and a yes/no flag such as
    /// `login_codes_single_use: true` is not one either (masking every "true" would garble output).
    public func registerVariables(_ vars: [String: JSONValue]) {
        for (name, value) in vars where !name.hasSuffix("_command") && Redactor.isSensitiveKey(name) && !Redactor.isFlag(value) {
            register(value)
        }
    }

    static func isFlag(_ value: JSONValue) -> Bool {
        switch value {
        case .bool: true
        case .string(let s): ["true", "false"].contains(s.lowercased())
        default: false
        }
    }

    /// `2026-11-21T06:30:27Z`: long and space-free like a token, but a time.
    static func isTimestamp(_ s: String) -> Bool {
        (try? RegexCache.isoTimestamp.firstMatch(in: s)) == true
    }

    public static func isSensitiveKey(_ key: String) -> Bool {
        // Byte search on ASCII-lowercased UTF-8: this runs for every key of every body shown, and Foundation's
        // `contains` was the largest single cost of a scripted run.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(key.utf8.count)
        for byte in key.utf8 { bytes.append(byte >= 65 && byte <= 90 ? byte | 0x20 : byte) }
        for part in sensitiveKeyPartBytes where bytes.count >= part.count {
            var start = 0
            while start + part.count <= bytes.count {
                var offset = 0
                while offset < part.count, bytes[start + offset] == part[offset] { offset += 1 }
                if offset == part.count { return true }
                start += 1
            }
        }
        return false
    }

    /// A display copy of a JSON body: string values under sensitive keys masked, then masked by value.
    public func maskedJSON(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let fields):
            var out: [String: JSONValue] = [:]
            for (key, field) in fields {
                // Under 4 characters is not a credential (`currency_code: GBP`), as `register` also holds.
                if Redactor.isSensitiveKey(key), case .string(let s) = field, s.count >= 4, !Redactor.looksLikeErrorCode(s) {
                    out[key] = .string(Redactor.mask)
                } else {
                    out[key] = maskedJSON(field)
                }
            }
            return .object(out)
        case .array(let items): return .array(items.map(maskedJSON))
        case .string(let s): return .string(redact(s))
        default: return value
        }
    }

    /// `otp_expired`, `bad_jwt`, `ACCOUNT_PENDING_APPROVAL`: codes that explain failures must stay readable.
    static func looksLikeErrorCode(_ s: String) -> Bool {
        s.contains("_") && s.allSatisfy { $0.isLetter || $0 == "_" }
    }

    public func maskedHeaderValue(_ name: String, _ value: String) -> String {
        Redactor.isSensitiveHeader(name) ? (value.hasPrefix("Bearer ") ? "Bearer \(Redactor.mask)" : Redactor.mask) : redact(value)
    }
}

extension RegexCache {
    static let isoTimestamp = compile("^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}")!
    static let uuid = compile("^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$")!
}
