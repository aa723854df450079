import Foundation
import Testing

@testable import FlowSpecLanguage

/// A response body and run variables, nothing else: what list functions read in these tests.
private struct ListScope: EvaluationScope {
    var body: JSONValue
    var vars: [String: JSONValue] = [:]

    func value(of read: ExpressionRead) -> JSONValue? {
        switch read {
        case .root(.body): body
        case .root(.status): .number(200)
        case .runVariable(let name): vars[name]
        case .variable: nil
        default: .null
        }
    }
}

private func evaluate(_ text: String, body: String, vars: [String: JSONValue] = [:]) throws -> JSONValue {
    try Evaluator.evaluate(try parse(text), ListScope(body: JSONValue.parse(body)!, vars: vars))
}

private func evaluationError(_ text: String, body: String) throws -> EvaluationError? {
    do {
        _ = try Evaluator.evaluate(try parse(text), ListScope(body: JSONValue.parse(body)!))
        return nil
    } catch let error as EvaluationError {
        return error
    }
}

/// Every diagnostic of `text` as a value (not a condition), with where it points.
private func valueErrors(_ text: String) throws -> [Diagnostic] {
    var d = Diagnostics()
    TypeChecker.check(try parse(text), in: ExprContext(place: "test", hasResponse: true, declaredInputs: []), into: &d)
    return d.items
}

/// `any`, `all`, `count`, `filter`, `first` and `map`: a condition or a projection over each element, `it`.
@Suite(.timeLimit(.minutes(5))) struct ListFunctionTests {
    static let flows =
        #"{"data": {"flows": [{"id": "login", "is_pending": false}, {"id": "mfa_authenticate", "is_pending": true, "types": ["totp", "recovery_codes"]}]}}"#

    @Test(arguments: [
        (#"any(body.data.flows, it.id == "mfa_authenticate")"#, "true"),
        (#"any(body.data.flows, it.id == "webauthn")"#, "false"),
        (#"all(body.data.flows, exists(it.id))"#, "true"),
        (#"all(body.data.flows, it.is_pending)"#, "false"),
        (#"count(body.data.flows, it.is_pending)"#, "1"),
        (#"count(body.data.flows, true)"#, "2"),
        (#"filter(body.data.flows, !it.is_pending)"#, #"[{"id":"login","is_pending":false}]"#),
        (#"first(body.data.flows, it.is_pending).id"#, #""mfa_authenticate""#),
        (#"first(body.data.flows, it.id == "none")"#, "null"),
        (#"first(body.data.flows).id"#, #""login""#),
        (#"map(body.data.flows, it.id)"#, #"["login","mfa_authenticate"]"#),
        (#"map(body.data.flows, len(it.types))"#, "[0,2]"),
        (#""recovery_codes" in first(body.data.flows, it.id == "mfa_authenticate").types"#, "true"),
        (#"any(body.data.flows, any(it.types, it == "totp"))"#, "true"),
        (#"any(body.data.flows, any(it.types, it == "login"))"#, "false"),
        (#"count(body.data.flows, count(it.types, true) == 2 && it.id == "mfa_authenticate")"#, "1"),
        (#"map([1, 2, 3], it * 10)"#, "[10,20,30]"),
        (#"map(filter([1, 2, 3, 4], it % 2 == 0), it + 1)"#, "[3,5]"),
        // A missing field of an element is null, which a condition counts as false.
        (#"count(body.data.flows, it.missing)"#, "0"),
    ])
    func listFunctionsLookAtEachElement(_ text: String, _ expected: String) throws {
        #expect(try evaluate(text, body: Self.flows).compactJSON == expected, "\(text)")
    }

    /// `it` is the innermost list function's element: the outer one is out of sight inside the inner condition.
    @Test func theInnermostElementWins() throws {
        let body = #"{"a": [{"b": [1, 2], "c": 2}, {"b": [3], "c": 9}]}"#
        // Inside the inner `any`, `it` is a number of `b`; `it.c` of a number is null.
        #expect(try evaluate("any(body.a, any(it.b, it == 2))", body: body) == .bool(true))
        #expect(try evaluate("count(body.a, any(it.b, it.c == 2))", body: body) == .number(0))
        // The inner list is read with the outer `it`: its own first argument is outside its second.
        #expect(try evaluate("map(body.a, map(it.b, it * 2))", body: body).compactJSON == "[[2,4],[6]]")
    }

    /// A missing list has no elements; an object or a string is not a list, and saying so beats a silent false.
    @Test func aMissingListIsEmptyAndAnythingElseIsAnError() throws {
        let cases: [(String, String)] = [
            ("any", "false"), ("all", "true"), ("count", "0"), ("filter", "[]"), ("map", "[]"), ("first", "null"),
        ]
        for (function, expected) in cases {
            let text = "\(function)(body.nothing, it == 1)"
            #expect(try evaluate(text, body: "{}").compactJSON == expected, "\(text)")
        }
        #expect(try evaluate("first(body.nothing)", body: "{}") == .null)
        #expect(try evaluate("first([])", body: "{}") == .null)

        let error = try #require(try evaluationError("any(body.data, it.id == 1)", body: Self.flows))
        #expect(
            error.message.hasPrefix("`any` looks through a list, but its first argument is the object"),
            "\(error.message)")
        #expect(error.location.column == here.column + 9, "at the first argument (a member is located at its name)")
        let text = try #require(try evaluationError(#"count(body.s, it == "a")"#, body: #"{"s": "abc"}"#))
        #expect(text.message.contains("the string \"abc\""), "\(text.message)")
    }

    @Test func aConditionThatIsNotTrueOrFalseIsAnErrorNamingTheElement() throws {
        let error = try #require(try evaluationError("any(body.xs, it)", body: #"{"xs": [false, 7]}"#))
        #expect(
            error.message
                == "`any` needs true or false from its condition, but for the element at position 1 it gave the number 7"
        )
        #expect(error.location.column == here.column + 13)
    }

    /// `any` stops at the first match and `all` at the first miss: a later element that would be an error is never
    /// looked at.
    @Test func anyAllAndFirstStopEarly() throws {
        let body = #"{"xs": [1, "text", 3]}"#
        #expect(try evaluate("any(body.xs, it == 1 || it > 0)", body: body) == .bool(true))
        #expect(try evaluate("all(body.xs, it != 1 && it > 0)", body: body) == .bool(false))
        #expect(try evaluate("first(body.xs, it == 1 || it > 0)", body: body) == .number(1))
        #expect(try evaluationError("count(body.xs, it > 0)", body: body)?.message.contains("cannot compare") == true)
    }

    /// Load time: what can be known before a run is a located error.
    @Test func mistakesAreLoadTimeErrorsAtTheirColumn() throws {
        let notCondition = try typeErrors("any(body.items, it.id)")
        #expect(notCondition.isEmpty, "`it.id` may be a boolean: \(notCondition)")
        let number = try valueErrors("count(body.items, 1 + 2)")
        #expect(
            number.map(\.message) == [
                "`count` needs a condition on each element (true or false), but its second argument is a number"
            ])
        #expect(number.first?.location.column == here.column + 20)
        #expect(number.first?.hint?.contains("it.id ==") == true)

        let string = try valueErrors(#"any("abc", it == "a")"#)
        #expect(string.map(\.message) == ["`any` looks through a list, but its first argument is a string"])
        #expect(string.first?.location.column == here.column + 4)
        #expect(
            try valueErrors(#"map(headers, it)"#).map(\.message) == [
                "`map` looks through a list, but its first argument is an object"
            ])
        #expect(try valueErrors(#"filter(5, true)"#).count == 1)

        let outside = try valueErrors("it.id == 1")
        #expect(outside.first?.message.contains("`it` is only defined inside a list function") == true)
        #expect(outside.first?.hint?.contains("any, all, count, filter, first, map") == true)
        #expect(outside.first?.location.column == here.column)
        // `it` in a list function's first argument is outside that function's condition.
        #expect(try valueErrors("any(it, true)").first?.message.contains("`it` is only defined inside") == true)
        #expect(try valueErrors("map(body.a, it.x) == it").count == 1)
        #expect(try valueErrors("any(body.a, any(it.b, it.c == 1))").isEmpty)
        #expect(
            try valueErrors("len(map(body.a, it.x)) > 0 && count(body.a, it.ok) == 2 && first(body.a).x == 1").isEmpty)
        #expect(
            try typeErrors("count(body.a, it.ok)").first?.contains("a condition must be true or false, but") == true)
    }

    /// A condition that does not read `it` gives every element the same answer: a warning, except a literal
    /// (`count(list, true)` counts them all).
    @Test func aConditionWithoutItIsAWarning() throws {
        let warned = try valueErrors(#"any(body.flows, body.id == "mfa")"#)
        #expect(
            warned.map(\.message) == [
                "the second argument of `any` does not read `it`, so it is the same for every element"
            ])
        #expect(warned.first?.severity == .warning)
        #expect(warned.first?.location.column == here.column + 24)
        #expect(try valueErrors("count(body.flows, true)").isEmpty)
        #expect(try valueErrors("map(body.flows, 1)").isEmpty)
        #expect(try valueErrors("any(body.a, any(it.b, it == 1))").isEmpty)
        #expect(
            try valueErrors("any(body.a, any(body.b, it == 1))").count == 1,
            "the inner `it` is body.b's; body.a's elements are unused")
        #expect(try valueErrors("any(body.a, any(body.b, status == 1))").count == 2)
    }

    @Test func wrongArgumentCountsAreParseErrors() {
        #expect(parseError("any(body.a)")?.message.contains("`any` takes 2 arguments, got 1") == true)
        #expect(parseError("map(body.a, it, it)")?.message.contains("`map` takes 2 arguments, got 3") == true)
        #expect(parseError("first(body.a, it, it)")?.message.contains("`first` takes 1 to 2 arguments, got 3") == true)
        #expect(parseError("count()")?.message.contains("`count` takes 2 arguments, got 0") == true)
    }

    /// Linear: 100,000 elements go through `count`, `any`, `filter` and `map` quickly even in a debug build.
    @Test func aHundredThousandElementsAreQuick() throws {
        let items = (0..<100_000).map { #"{"id":\#($0),"kind":"\#($0 % 3 == 0 ? "a" : "b")"}"# }
        let body = JSONValue.parse(#"{"items":[\#(items.joined(separator: ","))]}"#)!
        let scope = ListScope(body: body)
        let started = ContinuousClock.now
        #expect(try Evaluator.evaluate(try parse(#"count(body.items, it.kind == "a")"#), scope) == .number(33_334))
        #expect(try Evaluator.evaluate(try parse("any(body.items, it.id == 99999)"), scope) == .bool(true))
        #expect(try Evaluator.evaluate(try parse("len(map(body.items, it.id))"), scope) == .number(100_000))
        let elapsed = ContinuousClock.now - started
        #expect(elapsed < .seconds(20), "took \(elapsed)")
    }

    /// A list function nested over the same long list is quadratic: it is stopped by its CPU-time budget with a
    /// message that says why, never left to run for hours.
    @Test func quadraticWorkIsStopped() throws {
        let body = JSONValue.parse("{\"a\":[" + Array(repeating: "1", count: 50_000).joined(separator: ",") + "]}")!
        let started = ContinuousClock.now
        do {
            _ = try Evaluator.evaluate(try parse("count(body.a, any(body.a, it == 2))"), ListScope(body: body))
            Issue.record("2.5 billion comparisons finished")
        } catch let error as EvaluationError {
            #expect(
                error.message.contains("of CPU time (0.5 s plus 10 µs per value in its lists), so it was stopped"),
                "\(error.message)")
        }
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    /// Lists read from the elements are parts of the outer list: going through all of them is linear and fits the
    /// budget the outer list's size earns.
    @Test func nestedListsReadFromTheElementFit() throws {
        let members = (0..<20_000).map { #""m\#($0)""# }.joined(separator: ",")
        let groups = Array(repeating: #"{"members":[\#(members)]}"#, count: 10).joined(separator: ",")
        let scope = ListScope(body: JSONValue.parse(#"{"groups":[\#(groups)]}"#)!)
        #expect(
            try Evaluator.evaluate(try parse(#"count(body.groups, any(it.members, it == "m19999"))"#), scope)
                == .number(10))
    }

    @Test func onlyAnEnclosingFunctionsElementIsAFreeRead() throws {
        #expect(try parse("it.b[0]").readsFreeElement)
        #expect(try parse("map(it.b, it.c)").readsFreeElement)
        #expect(!(try parse("map(body.b, it.c)").readsFreeElement), "that `it` is map's own element")
        #expect(!(try parse("len(body.b)").readsFreeElement))
    }

    /// `it` cannot be a flow variable: it would silently stop meaning the element.
    @Test func itIsAReservedName() {
        #expect(Root.isReserved("it") && Root.isReserved("body") && !Root.isReserved("item"))
        #expect(Root.reservedNames.contains("it"))
    }
}

/// `string()`'s exact text, as docs/language.md describes it: flows that search it depend on every character.
@Suite(.timeLimit(.minutes(5))) struct StringOutputTests {
    @Test(arguments: [
        (#"string("plain")"#, "plain"), ("string(null)", ""), ("string(true)", "true"), ("string(3)", "3"),
        ("string(-42)", "-42"), ("string(-0)", "0"), ("string(1.5)", "1.5"), ("string(0.1)", "0.1"),
        ("string(0.0000001)", "1e-07"), ("string(1000000000000000)", "1000000000000000.0"),
        ("string(10000000000000000)", "1e+16"), ("string(999999999999999)", "999999999999999"),
        ("string(1234567890123456)", "1234567890123456.0"), ("string([1, \"a\", null, true])", #"[1,"a",null,true]"#),
    ])
    func scalarsAndLists(_ text: String, _ expected: String) throws {
        #expect(try evaluate(text, body: "{}") == .string(expected), "\(text)")
    }

    @Test func objectsAreCompactWithSortedKeysAndJSONEscapes() throws {
        let body =
            #"{"data": { "flows": [ { "id": "mfa", "types": ["totp"] } ], "Count": 1 }, "odd": {"b": "q\"\\\n\r\t\u0001/é😀", "_": 1, "a": 2, "B": 3, "1": 4}}"#
        #expect(
            try evaluate("string(body.data)", body: body)
                == .string(#"{"Count":1,"flows":[{"id":"mfa","types":["totp"]}]}"#))
        #expect(
            try evaluate("string(body.odd)", body: body)
                == .string(#"{"1":4,"B":3,"_":1,"a":2,"b":"q\"\\\n\r\t\u0001/é😀"}"#))
    }
}
