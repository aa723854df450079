import FlowSpecLanguage
import FlowSpecRuntime
import Foundation
import Synchronization

/// Makes a login guess: the first request that carries the secret value (once the input source has handed it out)
/// is sent `count` times with a wrong value in its place (`wrong` makes them from the right one), then as it was. It keeps every answer, so the
/// attempt-limits probe can judge the right value's answer after the wrong ones.
final class GuessingAdapter: HTTPAdapter {
    let inner: any HTTPAdapter
    let count: Int
    let wrong: @Sendable (_ right: String, _ count: Int) -> [String]
    struct State {
        var target: String?
        var done = false
        var guesses: [ExchangeLog.Entry] = []
        var right: ExchangeLog.Entry?
    }
    private let state = Mutex(State())

    init(_ inner: any HTTPAdapter, count: Int, wrong: @escaping @Sendable (_ right: String, _ count: Int) -> [String]) {
        self.inner = inner
        self.count = count
        self.wrong = wrong
    }

    var preferredExecutor: (any TaskExecutor)? { inner.preferredExecutor }

    /// The value to guess at, once known.
    func aim(at value: String) { state.withLock { if $0.target == nil { $0.target = value } } }

    var guesses: [ExchangeLog.Entry] { state.withLock { $0.guesses } }
    var right: ExchangeLog.Entry? { state.withLock { $0.right } }

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let target: String? = state.withLock { s in
            guard !s.done, let target = s.target, ProbeCheck.carries(request, target) else { return nil }
            s.done = true
            return target
        }
        guard let target else { return try await inner.send(request) }
        for value in wrong(target, count) {
            let guess = Self.replacing(target, with: value, in: request)
            do {
                let response = try await inner.send(guess)
                state.withLock {
                    $0.guesses.append(
                        ExchangeLog.Entry(flow: "", state: "", request: guess, response: response, failure: nil))
                }
                // A lock or a rate limit answers the question; more guesses would only lengthen the lock.
                if response.status == 429 { break }
            } catch {
                state.withLock {
                    $0.guesses.append(
                        ExchangeLog.Entry(flow: "", state: "", request: guess, response: nil, failure: error))
                }
                break
            }
        }
        do {
            let response = try await inner.send(request)
            state.withLock {
                $0.right = ExchangeLog.Entry(flow: "", state: "", request: request, response: response, failure: nil)
            }
            return response
        } catch {
            state.withLock {
                $0.right = ExchangeLog.Entry(flow: "", state: "", request: request, response: nil, failure: error)
            }
            throw error
        }
    }

    /// `request` with `value` wherever it carried `target`: JSON strings, form and query values, or the raw body.
    static func replacing(_ target: String, with value: String, in request: HTTPRequest) -> HTTPRequest {
        var copy = request
        copy.query = request.query.map { ($0.0, $0.1 == target ? value : $0.1) }
        copy.form = request.form?.map { ($0.0, $0.1 == target ? value : $0.1) }
        if let json = request.json {
            copy.json = replacing(target, with: value, in: json)
            copy.body = copy.json?.data
        } else if let body = request.body {
            // A form body is written already: its values are percent-encoded.
            let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
            copy.body = Data(
                String(decoding: body, as: UTF8.self).replacingOccurrences(of: target, with: value)
                    .replacingOccurrences(
                        of: encoded, with: value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
                    ).utf8)
        }
        return copy
    }

    static func replacing(_ target: String, with value: String, in json: JSONValue) -> JSONValue {
        switch json {
        case .string(let s): .string(s == target ? value : s.replacingOccurrences(of: target, with: value))
        case .array(let items): .array(items.map { replacing(target, with: value, in: $0) })
        case .object(let fields): .object(fields.mapValues { replacing(target, with: value, in: $0) })
        default: json
        }
    }

    /// `count` codes of the right code's shape, each different from it in every digit and letter.
    static func wrongCodes(like code: String, count: Int) -> [String] {
        (0..<count).map { i in
            let shift = i % 9 + 1
            return String(
                code.map { ch -> Character in
                    if let d = ch.wholeNumberValue, ch.isASCII { return Character(String((d + shift) % 10)) }
                    guard ch.isASCII, ch.isLetter, let a = (ch.isUppercase ? "A" : "a").unicodeScalars.first?.value,
                        let v = ch.unicodeScalars.first?.value
                    else { return ch }
                    return Character(UnicodeScalar(a + (v - a + UInt32(shift)) % 26)!)
                })
        }
    }
}
