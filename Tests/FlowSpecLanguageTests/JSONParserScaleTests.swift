import Foundation
import Testing

@testable import FlowSpecLanguage

/// The JSON parser takes time in proportion to the document, and stops when its run's deadline has passed.
/// It copied a list or object being filled at every member it added: a list of 100,000 zeros (200 KB) took 42 s,
/// an object of 20,000 keys 3 s. The bounds here are many times the CPU time a linear parser needs, and far below
/// what the copying one took.
@Suite(.timeLimit(.minutes(2))) struct JSONParserScaleTests {
    @Test func aListOfOneHundredThousandNumbersParsesQuickly() throws {
        let text = "[" + Array(repeating: "0", count: 100_000).joined(separator: ",") + "]"
        let (value, seconds) = try Self.timed { try JSONValue.parsing(Data(text.utf8)) }
        #expect(value.arrayValue?.count == 100_000)
        #expect(seconds < 2, "a 200 KB list took \(seconds) s")
    }

    @Test func anObjectOfFiftyThousandKeysParsesQuickly() throws {
        let text = "{" + (0..<50_000).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        let (value, seconds) = try Self.timed { try JSONValue.parsing(Data(text.utf8)) }
        #expect(value.objectValue?.count == 50_000)
        #expect(value["k49999"] == .number(49_999))
        #expect(seconds < 3, "50,000 keys took \(seconds) s")
    }

    /// Wide containers inside each other: every level is filled in place, not only the outermost.
    @Test func wideNestedContainersParseQuickly() throws {
        let inner = "[" + Array(repeating: "{\"a\":[1,2,3]}", count: 300).joined(separator: ",") + "]"
        let text = "{\"outer\":[" + Array(repeating: inner, count: 300).joined(separator: ",") + "]}"
        let (value, seconds) = try Self.timed { try JSONValue.parsing(Data(text.utf8)) }
        #expect(value["outer"].arrayValue?.count == 300)
        #expect(value["outer"].arrayValue?.first?.arrayValue?.count == 300)
        #expect(seconds < 3, "90,000 small objects took \(seconds) s")
    }

    /// Fuzz-style: large random documents (seeded, so a failure replays) survive printing and parsing again, each
    /// within a bound a quadratic parser misses by far.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func largeRandomDocumentsRoundTrip(_ seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let document = RandomJSON.value(&random, depth: 0, budget: 60_000)
        let text = document.compactJSON
        let (parsed, seconds) = try Self.timed { try JSONValue.parsing(Data(text.utf8)) }
        #expect(parsed == document, "seed \(seed): the document changed on the way through")
        #expect(seconds < 3, "seed \(seed): \(text.utf8.count) bytes took \(seconds) s")
    }

    // MARK: the run's deadline

    @Test func aDocumentBeingReadStopsOnceTheRunsDeadlineHasPassed() throws {
        let text = Data(("[" + Array(repeating: "0", count: 100_000).joined(separator: ",") + "]").utf8)
        let error = RunDeadline.$current.withValue(RunDeadline(afterSeconds: 0)) { () -> JSONSyntaxError? in
            do throws(JSONSyntaxError) { _ = try JSONValue.parsing(text); return nil } catch { return error }
        }
        let stopped = try #require(error, "a passed deadline did not stop the parser")
        #expect(stopped.message.contains("time limit"))
        #expect(stopped.offset < text.count, "the error lies inside the text")
        // Without a deadline (outside any run) the same text parses.
        #expect(JSONValue.parse(text)?.arrayValue?.count == 100_000)
    }

    @Test func aDocumentBeingReadStopsWhenItsTaskIsCancelled() async {
        let text = Data(("[" + Array(repeating: "0", count: 100_000).joined(separator: ",") + "]").utf8)
        let task = Task { () -> JSONValue? in
            withUnsafeCurrentTask { $0?.cancel() }
            return JSONValue.parse(text)
        }
        #expect(await task.value == nil, "a cancelled task went on parsing")
    }

    @Test func smallDocumentsAreNeverStopped() throws {
        // Fewer values than one look at the deadline: a run past its deadline still reads a small body whole.
        let value = RunDeadline.$current.withValue(RunDeadline(afterSeconds: 0)) {
            JSONValue.parse(#"{"token":"abc","n":[1,2,3]}"#)
        }
        #expect(value?["token"] == .string("abc"))
    }

    /// The work's CPU seconds on this thread (the parse runs on it from start to end): what the parser costs,
    /// which a full suite on two cores does not inflate as it does the wall clock.
    static func timed<T>(_ work: () throws -> T) throws -> (T, Double) {
        let started = CompiledRegex.threadCPUNanoseconds()
        let value = try work()
        return (value, Double(CompiledRegex.threadCPUNanoseconds() - started) / 1e9)
    }
}

/// Random JSON values of every kind, wide rather than deep, up to a number of values.
enum RandomJSON {
    static func value(_ random: inout SplitMix64, depth: Int, budget: Int) -> JSONValue {
        var left = budget
        return value(&random, depth: depth, left: &left)
    }

    private static func value(_ random: inout SplitMix64, depth: Int, left: inout Int) -> JSONValue {
        left -= 1
        // The document itself is a list or an object; below it, anything.
        let kind = depth == 0 ? 5 + random.below(2) : depth >= 6 || left <= 0 ? random.below(5) : random.below(7)
        switch kind {
        case 0: return .null
        case 1: return .bool(random.below(2) == 0)
        case 2: return .number(Double(Int64(bitPattern: random.next()) >> 20) / Double(1 << random.below(12)))
        case 3: return .string(text(&random))
        case 4: return .string(String(repeating: "\u{E9}\"\\\n", count: Int(random.below(4))) + text(&random))
        case 5:
            let count = Int(random.below(depth == 0 ? 20_000 : 40))
            var items: [JSONValue] = []
            for _ in 0..<count where left > 0 { items.append(value(&random, depth: depth + 1, left: &left)) }
            return .array(items)
        default:
            let count = Int(random.below(depth == 0 ? 20_000 : 40))
            var fields: [String: JSONValue] = [:]
            for i in 0..<count where left > 0 {
                fields["\(text(&random))\(i)"] = value(&random, depth: depth + 1, left: &left)
            }
            return .object(fields)
        }
    }

    private static func text(_ random: inout SplitMix64) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz_-0123456789")
        return String((0..<Int(random.below(12))).map { _ in letters[Int(random.below(UInt64(letters.count)))] })
    }
}
