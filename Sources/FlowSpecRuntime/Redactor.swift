import FlowSpecLanguage
import Foundation
import Synchronization

/// Masks secrets in everything a run shows. Values are registered where they come from — secret inputs,
/// everything written to or loaded into the token store, values captured under a credential's name, credentials
/// in responses — so masking follows the data, not a list of field names.
///
/// A registered value of any length is masked wherever it is a whole value: a JSON string or number, a form field,
/// a query parameter, a header. Inside free text (a text body, a message) only values of 4 characters or more are
/// masked: a one-letter password masked inside every word would garble the output and hide nothing.
package final class Redactor: Sendable {
    package static let mask = "••••"
    /// Shorter values are masked as whole values only.
    static let shortestMaskedInText = 4

    private struct Secrets {
        var whole: Set<String> = []
        /// The encoded forms of the registered values (`SecretForms`), masked as whole values too.
        var encoded: Set<String> = []
        /// Registered values whose forms are not worked out yet: that waits until masking needs them, so a run
        /// that shows nothing pays only for the registration. `bulk`: from a backend or the store (see `bulkBudget`).
        var unencoded: [(value: String, bulk: Bool)] = []
        /// The values of 4 characters or more and their encoded forms, for masking inside text.
        var inText = SecretSearch()
        /// Bytes of bulk secrets given encoded forms so far.
        var bulkBytes = 0

        mutating func encodeNew() {
            guard !unencoded.isEmpty else { return }
            for (value, bulk) in unencoded {
                if bulk { bulkBytes += value.utf8.count }
                guard !bulk || bulkBytes <= Redactor.bulkBudget else {
                    if value.count >= Redactor.shortestMaskedInText { inText.add(Array(value.utf8)) }
                    continue
                }
                let forms = SecretForms.encodings(of: value)
                encoded.formUnion(forms)
                guard value.count >= Redactor.shortestMaskedInText else { continue }
                inText.add(Array(value.utf8))
                for form in forms { inText.add(Array(form.utf8)) }
                for piece in SecretForms.base64Pieces(of: value) { inText.add(piece) }
            }
            unencoded = []
        }
    }
    private let secrets = Mutex(Secrets())
    /// Where the forms and automaton of a set of secrets already worked out by another redactor are found.
    private let prepared: PreparedSecrets?

    package init(prepared: PreparedSecrets? = nil) { self.prepared = prepared }

    /// Works out the forms of what was registered since (`Secrets.encodeNew`); the first time, from `prepared`
    /// when another run started from the same secrets.
    private func encodeNew(_ secrets: inout Secrets) {
        guard !secrets.unencoded.isEmpty else { return }
        guard let prepared, secrets.unencoded.count == secrets.whole.count else { secrets.encodeNew(); return }
        if let entry = prepared.entry(for: secrets.whole) {
            secrets.encoded = entry.encoded
            secrets.inText = entry.inText
            secrets.bulkBytes = entry.bulkBytes
            secrets.unencoded = []
        } else {
            secrets.encodeNew()
            secrets.inText.prepare()
            prepared.store(
                .init(encoded: secrets.encoded, inText: secrets.inText, bulkBytes: secrets.bulkBytes),
                for: secrets.whole)
        }
    }

    /// Credentials from backends and the token store are searched in their encoded forms while they add up to this
    /// many bytes in a run, as they are after that. A run registers a few kilobytes; the forms take about five times
    /// a secret's length in the search, which a backend handing out megabytes of tokens must not multiply.
    /// Secret inputs, run variables and captures always get their forms.
    static let bulkBudget = 256 << 10

    package func register(_ value: String) { register(value, bulk: false) }

    func register(_ value: String, bulk: Bool) {
        guard !value.isEmpty else { return }
        secrets.withLock { secrets in
            if secrets.whole.insert(value).inserted { secrets.unencoded.append((value, bulk)) }
        }
        if value.hasPrefix("Bearer ") { register(String(value.dropFirst(7)), bulk: bulk) }
    }

    /// Registers values already known to be secret (collected once, e.g. from a scenario file) under one lock.
    package func register(known values: Set<String>) {
        secrets.withLock { secrets in
            // A fresh redactor (one a run) takes the set as it is, shared until either side changes it.
            if secrets.whole.isEmpty, !values.contains("") {
                secrets.whole = values
                secrets.unencoded.append(contentsOf: values.lazy.map { ($0, false) })
            } else {
                for value in values where !value.isEmpty && secrets.whole.insert(value).inserted {
                    secrets.unencoded.append((value, false))
                }
            }
        }
    }

    /// Everything registered so far.
    package var registeredValues: Set<String> { secrets.withLock { $0.whole } }

    /// The values `register` would mark as secrets, without keeping a redactor: e.g. which run variables are
    /// credentials, worked out once when a scenario is loaded and registered in each run's own redactor.
    package static func secrets(_ register: (Redactor) -> Void) -> Set<String> {
        let scratch = Redactor()
        register(scratch)
        return scratch.registeredValues
    }

    /// Whether `text` is, as a whole, a registered secret or an encoded form of one.
    package func isSecret(_ text: String) -> Bool {
        secrets.withLock { secrets in
            if secrets.whole.contains(text) { return true }
            encodeNew(&secrets)
            return secrets.encoded.contains(text)
        }
    }

    package func register(_ value: JSONValue) { register(value, bulk: false) }

    func register(_ value: JSONValue, bulk: Bool) {
        switch value {
        case .string(let s): register(s, bulk: bulk)
        case .number: register(value.compactJSON, bulk: bulk)
        case .array(let items): items.forEach { register($0, bulk: bulk) }
        case .object(let fields): fields.values.forEach { register($0, bulk: bulk) }
        default: break
        }
    }

    /// A value entering the token store is a secret when its key names a credential (`access_token`,
    /// `refresh_token`, `token`, `api_key`…) or when it is a long opaque string (20+ characters, no spaces),
    /// as tokens are; ordinary values such as a role, an id or an expiry stay readable in reports.
    /// Under a credential's name the value is a secret whatever it looks like (a token of letters and `_` looks
    /// like an error code, and was shown).
    package func registerStored(_ key: String, _ value: JSONValue) {
        if Redactor.isSensitiveKey(key) || Redactor.mentionsSession(key) {
            register(value, bulk: true)
        } else if case .string(let s) = value, s.count >= 20, !s.utf8.contains(UInt8(ascii: " ")), !Redactor.isUUID(s),
            !Redactor.isTimestamp(s),
            !Redactor.looksLikeErrorCode(s)
        {
            register(s, bulk: true)
        }
    }

    /// A value a flow captured into a variable (`set:`): a secret when the variable's name names a credential by its
    /// last word (`code`, `email_code`; not `token_company`), whatever the value's type, length or shape — a code read
    /// from a text body and sent on as a number included. A capture under another name that is then sent as a
    /// credential is registered when it is sent (`registerSent`).
    package func registerCaptured(_ name: String, _ value: JSONValue) {
        guard CredentialKey.isCredentialName(name), !Redactor.isFlag(value) else { return }
        register(value)
    }

    /// What a request carries as a credential, registered as it is sent, whatever its origin: the values of
    /// credential headers (`Authorization`, `Cookie`, `apikey`, `X-API-Key`, or a name such as `X-Auth-Token`) —
    /// a session's included — and of request fields named like a credential (`password`, `code`, `refresh_token`)
    /// in the query, a form or a JSON body, at any depth. So a value is masked because it was *used* as a secret,
    /// whatever the variable or input it came from is called. Yes/no flags stay readable.
    package func registerSent(_ request: HTTPRequest) {
        for (name, value) in request.headers where Redactor.isSensitiveHeader(name) || CredentialKey.isCredential(name)
        {
            // `Bearer …`, `Basic …`, `Token …`: the credential is what follows the scheme, so the header still reads
            // `Bearer ••••` wherever it is shown.
            if name.lowercased().hasSuffix("authorization"), let space = value.firstIndex(of: " ") {
                let credential = value[value.index(after: space)...].trimmingCharacters(in: .whitespaces)
                register(credential.isEmpty ? value : credential)
            } else {
                register(value)
            }
        }
        for (name, value) in request.query + (request.form ?? [])
        where CredentialKey.isCredential(name) && !Redactor.isFlag(.string(value)) {
            register(value)
        }
        if let json = request.json { registerCredentialFields(of: json) }
    }

    private func registerCredentialFields(of value: JSONValue) {
        switch value {
        case .object(let fields):
            for (key, field) in fields {
                if CredentialKey.isCredential(key) {
                    registerUnlessFlag(field)
                } else {
                    registerCredentialFields(of: field)
                }
            }
        case .array(let items): items.forEach(registerCredentialFields)
        default: break
        }
    }

    private func registerUnlessFlag(_ value: JSONValue) {
        switch value {
        case .array(let items): items.forEach(registerUnlessFlag)
        case .object(let fields): fields.values.forEach(registerUnlessFlag)
        default: if !Redactor.isFlag(value) { register(value) }
        }
    }

    /// `key` holds `session` in any case (by bytes: Foundation's search was a hot spot of scripted runs).
    static func mentionsSession(_ key: String) -> Bool { CredentialKey.mentions(sessionWord, in: key) }
    private static let sessionWord = Array("session".utf8)

    package func redact(_ text: String) -> String {
        // One lock for both answers: this runs for every string a run shows.
        let (isWhole, search) = secrets.withLock { secrets -> (Bool, SecretSearch) in
            if secrets.whole.contains(text) { return (true, secrets.inText) }
            encodeNew(&secrets)
            secrets.inText.prepare()
            return (secrets.encoded.contains(text), secrets.inText)
        }
        if isWhole { return Redactor.mask }
        return search.isEmpty ? text : Redactor.masking(search, in: text)
    }

    /// `text` with every stretch that holds a secret masked, overlapping secrets as one. Matched by UTF-8 bytes,
    /// not by characters: Foundation's search compares graphemes, so a secret whose last letter is followed by a
    /// combining mark (`…N` + U+065E is one character) was not found and was printed (found by fuzzing).
    /// A match of valid UTF-8 inside valid UTF-8 starts and ends on scalar boundaries, so the result stays valid.
    static func masking(_ search: SecretSearch, in text: String) -> String {
        var text = text
        return text.withUTF8 { hay -> String? in
            let ranges = search.ranges(in: hay)
            guard !ranges.isEmpty else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(hay.count)
            var copied = 0
            for range in ranges {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: hay[copied..<range.lowerBound]))
                out.append(contentsOf: Redactor.mask.utf8)
                copied = range.upperBound
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: hay[copied...]))
            return String(decoding: out, as: UTF8.self)
        } ?? text
    }

    /// A URL with each query value that is a secret, or sits under a credential's name, masked, then masked as text.
    package func redactURL(_ url: String) -> String {
        // Credentials in the authority (`user:password@`) are masked by where they are, whatever their length.
        let url = url.contains("@") ? RequestURL.maskingCredentials(url, mask: Redactor.mask) : url
        guard let question = url.firstIndex(of: "?") else { return redact(url) }
        let query = url[url.index(after: question)...]
        let parts = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = String(pair[..<equals]), raw = String(pair[pair.index(after: equals)...])
            let value = raw.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? raw
            let credential =
                Redactor.isSensitiveKey(name.removingPercentEncoding ?? name)
                && value.count >= Redactor.shortestMaskedInText
            return credential || isSecret(value) || isSecret(raw) ? "\(name)=\(Redactor.mask)" : String(pair)
        }
        return redact(String(url[...question]) + parts.joined(separator: "&"))
    }

    /// A value for display: masked as a JSON body would be, then written as compact JSON.
    package func shown(_ value: JSONValue) -> String { maskedJSON(value).compactJSON }

    static let sensitiveHeaders: Set<String> = [
        "authorization", "cookie", "set-cookie", "apikey", "x-api-key", "proxy-authorization",
    ]

    package static func isSensitiveHeader(_ name: String) -> Bool { sensitiveHeaders.contains(name.lowercased()) }

    /// Ids (user, company, session family) are UUIDs; a credential under an id-like key is rare, and one
    /// under a credential key is masked by its key anyway.
    /// `^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$`, read byte by byte: ICU's
    /// regular expression for it was most of masking's cost in a live run (`RedactorByteShapeTests` holds the two equal).
    static func isUUID(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { bytes in
            bytes.count == 36
                && bytes.indices.allSatisfy { i in
                    [8, 13, 18, 23].contains(i) ? bytes[i] == UInt8(ascii: "-") : isHexDigit(bytes[i])
                }
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }

    /// Run variables that hold credentials: those a flow or scenario uses as a secret (`usedAsSecrets`, from
    /// `SecretUses`: they feed a secret or code input, a credential header, a credential field, `totp()`…), and those
    /// whose name is a credential's by its last word (`staff_password`, `phone_otp`, `supabase_anon_key`; not
    /// `code_email`). A `*_command` is a recipe for fetching a code, not a secret, and a yes/no flag such as
    /// `login_codes_single_use: true` is not one either (masking every "true" would garble output).
    package func registerVariables(_ vars: [String: JSONValue], usedAsSecrets: Set<String> = []) {
        for (name, value) in vars
        where Redactor.isSecretVariable(name, usedAsSecrets: usedAsSecrets) && !Redactor.isFlag(value) {
            register(value)
        }
    }

    /// See `registerVariables`.
    package static func isSecretVariable(_ name: String, usedAsSecrets: Set<String> = []) -> Bool {
        !name.hasSuffix("_command") && (usedAsSecrets.contains(name) || CredentialKey.isCredentialName(name))
    }

    /// Whether a name a user chose names a credential by its last word (`CredentialKey.isCredentialName`).
    package static func isCredentialName(_ name: String) -> Bool { CredentialKey.isCredentialName(name) }

    static func isFlag(_ value: JSONValue) -> Bool {
        switch value {
        case .bool: true
        case .string(let s): ["true", "false"].contains(s.lowercased())
        default: false
        }
    }

    /// `2026-11-21T06:30:27Z`: long and space-free like a token, but a time.
    /// The text starts as `^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}` does, read byte by byte.
    static func isTimestamp(_ s: String) -> Bool {
        let shape = Array("dddd-dd-ddTdd:dd".utf8)
        var s = s
        return s.withUTF8 { bytes in
            bytes.count >= shape.count
                && shape.indices.allSatisfy { i in
                    switch shape[i] {
                    case UInt8(ascii: "d"): (48...57).contains(bytes[i])
                    case UInt8(ascii: "T"): bytes[i] == UInt8(ascii: "T") || bytes[i] == UInt8(ascii: " ")
                    default: bytes[i] == shape[i]
                    }
                }
        }
    }

    /// See `CredentialKey`: by words, so `token_type` and `postcode` are not credentials.
    package static func isSensitiveKey(_ key: String) -> Bool { CredentialKey.isCredential(key) }

    /// A display copy of a JSON body: values under credential keys masked, then registered secrets masked
    /// wherever they are a whole string or number, then long secrets masked inside strings — keys
    /// too, since a backend may echo a secret as a key (`{"<password>": "invalid"}`; found by fuzzing).
    package func maskedJSON(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let fields):
            var out: [String: JSONValue] = [:]
            for (key, field) in fields {
                out[redact(key)] =
                    Redactor.isSensitiveKey(key) && Redactor.isCredentialShaped(field, under: key)
                    ? .string(Redactor.mask) : maskedJSON(field)
            }
            return .object(out)
        case .array(let items): return .array(items.map(maskedJSON))
        case .string(let s): return isSecret(s) ? .string(Redactor.mask) : .string(redact(s))
        case .number: return isSecret(value.compactJSON) ? .string(Redactor.mask) : value
        default: return value
        }
    }

    /// What a credential under a credential's key (in a response) looks like: 4 characters or digits or more
    /// (`currency_code: GBP` and `otp_digits`-style small numbers are not), and, under a key that only says `code`,
    /// not an error code such as `otp_expired` (`{"code": "otp_expired"}` is how Supabase refuses).
    static func isCredentialShaped(_ value: JSONValue, under key: String) -> Bool {
        switch value {
        case .string(let s):
            s.count >= shortestMaskedInText && !(CredentialKey.namesOnlyACode(key) && looksLikeErrorCode(s))
        case .number(let n): n.isFinite && n == n.rounded() && abs(n) >= 1000
        default: false
        }
    }

    /// `otp_expired`, `bad_jwt`, `ACCOUNT_PENDING_APPROVAL`: codes that explain failures must stay readable. Words
    /// of one case joined by `_`; a token of mixed-case letters and `_` is not one. Only a value a backend sends
    /// under a `code` key is read by this shape: one that comes from a credential's name is a secret whatever it looks like.
    static func looksLikeErrorCode(_ s: String) -> Bool {
        var underscore = false, lower = false, upper = false
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "_"): underscore = true
            case UInt8(ascii: "a")...UInt8(ascii: "z"): lower = true
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): upper = true
            default: return false
            }
        }
        return underscore && lower != upper
    }

    /// A header as shown: its value masked, and its name masked by value (a backend may echo a secret into a
    /// header name; found by fuzzing).
    package func maskedHeader(_ name: String, _ value: String) -> (name: String, value: String) {
        (redact(name), maskedHeaderValue(name, value))
    }

    package func maskedHeaderValue(_ name: String, _ value: String) -> String {
        if Redactor.isSensitiveHeader(name) {
            return value.hasPrefix("Bearer ") ? "Bearer \(Redactor.mask)" : Redactor.mask
        }
        return redact(value)
    }
}
