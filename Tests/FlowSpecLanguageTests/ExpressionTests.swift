import Testing

@testable import FlowSpecLanguage

let here = SourceLocation(file: "t.yaml", line: 3, column: 10)

func parse(_ text: String) throws -> Expr {
    switch ExpressionParser.parse(text, at: here) {
    case .success(let e): return e
    case .failure(let d): throw d
    }
}

func parseError(_ text: String) -> Diagnostic? {
    if case .failure(let d) = ExpressionParser.parse(text, at: here) { return d }
    return nil
}

func typeErrors(_ text: String, response: Bool = true, inputs: Set<String> = ["email"]) throws -> [String] {
    var d = Diagnostics()
    TypeChecker.checkCondition(
        try parse(text), in: ExprContext(place: "test", hasResponse: response, declaredInputs: inputs), into: &d)
    return d.items.map(\.message)
}

@Suite(.timeLimit(.minutes(5))) struct ExpressionParserTests {
    @Test(arguments: ["len(, body)", "[, 1]", "len(body,)", "[1,, 2]", "[1, 2,]", "exists(,)"])
    func aStrayCommaIsAnError(_ text: String) {
        let error = parseError(text)
        #expect(error != nil, "`\(text)` parsed")
        #expect(
            error?.message.contains("unexpected") == true || error?.message.contains("expected") == true,
            "\(error?.message ?? "")")
    }

    @Test func precedenceBindsComparisonTighterThanLogic() throws {
        let e = try parse("status == 200 && body.ok || false")
        guard case .binary(.or, let lhs, _) = e.kind, case .binary(.and, let and, _) = lhs.kind,
            case .binary(.equal, _, _) = and.kind
        else {
            Issue.record("wrong tree: \(e.kind)")
            return
        }
    }

    @Test func durationsAreSeconds() throws {
        guard case .binary(.add, _, let rhs) = try parse("now + 15m").kind, case .literal(.number(let n)) = rhs.kind
        else {
            Issue.record("expected now + number")
            return
        }
        #expect(n == 900)
        guard case .literal(.number(let ms)) = try parse("250ms").kind else { Issue.record("no number"); return }
        #expect(ms == 0.25)
    }

    @Test func memberIndexAndCalls() throws {
        let e = try parse(#"matches(headers["x-sb-error-code"], "^bad") && len(body.items[0].tags) > 1"#)
        #expect(e.roots.map(\.0.rawValue).sorted() == ["body", "headers"])
    }

    @Test func errorsPointAtTheOffendingColumn() {
        let d = parseError("status = 200")
        #expect(d?.location.column == 17)
        #expect(d?.message.contains("`=` is not an operator; compare with `==`") == true)
        #expect(parseError("status ==")?.message.contains("ends too early") == true)
        #expect(parseError("foo(1)")?.message.contains("unknown function `foo`") == true)
        #expect(parseError("exists(1, 2)")?.message.contains("`exists` takes 1 argument, got 2") == true)
        #expect(parseError("1 < 2 < 3")?.message.contains("cannot be chained") == true)
        #expect(parseError("'open")?.message.contains("unterminated string") == true)
        #expect(parseError("5x")?.message.contains("unknown duration unit `x`") == true)
    }

    @Test func reportsVariableAndInputReads() throws {
        let e = try parse("attempts < 3 && inputs.email != user_id")
        #expect(e.variableReads.map(\.0).sorted() == ["attempts", "user_id"])
        #expect(e.inputReads.map(\.0) == ["email"])
    }
}

@Suite(.timeLimit(.minutes(5))) struct TypeCheckerTests {
    @Test func comparingNumberWithStringIsAnError() throws {
        #expect(try typeErrors(#"status == "200""#) == ["comparing a number with a string is always false"])
    }

    @Test func conditionsMustBeBoolean() throws {
        #expect(try typeErrors("status") == ["a condition must be true or false, but `status` is a number"])
        #expect(try typeErrors("!status").first?.contains("`!` needs true or false") == true)
    }

    @Test func responseRootsNeedAResponse() throws {
        #expect(
            try typeErrors("status == 200", response: false).first?.contains(
                "`status` is only available where there is a response") == true)
    }

    @Test func undeclaredInputsAreReportedWithSuggestion() throws {
        var d = Diagnostics()
        TypeChecker.check(try parse("inputs.emial"), in: ExprContext(place: "t", declaredInputs: ["email"]), into: &d)
        #expect(d.items.first?.message == "undeclared input `emial`")
        #expect(d.items.first?.hint == "did you mean `email`?")
    }

    @Test func badRegexLiteral() throws {
        #expect(try typeErrors(#"matches(body.x, "[")"#) == [#"invalid regular expression "[""#])
    }

    @Test func dynamicValuesPass() throws {
        #expect(try typeErrors("body.a == 1 && exists(headers.x) && store.t != null && now + 60s > 5").isEmpty)
    }
}

@Suite(.timeLimit(.minutes(5))) struct TemplateTests {
    @Test func singleExpressionKeepsItsType() throws {
        guard case .success(let t) = Template.parse("${body.n}", at: here) else { Issue.record("parse failed"); return }
        #expect(t.singleExpression != nil)
    }

    @Test func interpolationAndEscapes() throws {
        guard case .success(let t) = Template.parse("Bearer ${store.token} $${literal}", at: here) else {
            Issue.record("parse failed"); return
        }
        #expect(t.parts.count == 3)
        if case .text(let tail) = t.parts[2] { #expect(tail == " ${literal}") } else { Issue.record("no tail text") }
    }

    /// "Empty" means spaces, tabs and other space separators only, as Foundation's `.whitespaces` said before the
    /// check was made scalar by scalar; a line break inside is left to the expression parser.
    @Test(arguments: ["${}", "${ }", "${\t \u{3000}\u{A0}}", "a ${  } b"])
    func anEmptyHoleIsAnError(_ text: String) {
        guard case .failure(let d) = Template.parse(text, at: here) else { Issue.record("\(text) should fail"); return }
        #expect(d.message.hasPrefix("empty `${}`"))
    }

    @Test func aHoleWithOnlyALineBreakIsNotCalledEmpty() {
        guard case .failure(let d) = Template.parse("${\n}", at: here) else { Issue.record("should fail"); return }
        #expect(!d.message.hasPrefix("empty `${}`"))
    }

    @Test func unclosedHoleIsAnErrorAtItsColumn() {
        guard case .failure(let d) = Template.parse("Bearer ${store.token", at: here) else {
            Issue.record("should fail"); return
        }
        #expect(d.location.column == 17)
        #expect(d.message.hasPrefix("unclosed `${`"))
    }

    @Test func expressionErrorsInsideHolesHaveExactColumns() {
        guard case .failure(let d) = Template.parse("x ${status ==}", at: here) else {
            Issue.record("should fail"); return
        }
        #expect(d.location.column == 23)
    }
}

@Suite(.timeLimit(.minutes(5))) struct JSONTests {
    @Test func parsesAndKeepsBooleansApartFromNumbers() {
        let v = JSONValue.parse(#"{"a": true, "b": 1, "c": [null, "x\n\u00e9"], "d": -1.5e2}"#)
        #expect(v?["a"] == .bool(true))
        #expect(v?["b"] == .number(1))
        #expect(v?["c"] == .array([.null, .string("x\né")]))
        #expect(v?["d"] == .number(-150))
    }

    @Test func rejectsMalformedJSON() {
        for bad in ["{", "[1,]", "{\"a\" 1}", "tru", "\"unterminated", "1 2", ""] {
            #expect(JSONValue.parse(bad) == nil, "should reject \(bad)")
        }
    }

    @Test func compactJSONIsSortedAndStable() {
        let v = JSONValue.object(["b": .number(2), "a": .string("q\"")])
        #expect(v.compactJSON == #"{"a":"q\"","b":2}"#)
    }
}

/// `slice` and `forge_jwt` are checked like every function: argument types, and a literal way to forge.
@Suite(.timeLimit(.minutes(5))) struct TokenFunctionCheckTests {
    @Test func wrongArgumentsAreLoadTimeErrors() throws {
        #expect(try typeErrors(#"slice(5, 0) == "x""#) == ["`slice` takes text, not a number"])
        #expect(try typeErrors(#"slice("abc", "1") == "x""#).first?.contains("character positions as numbers") == true)
        #expect(
            try typeErrors(#"forge_jwt(body.t, "unsigend") == "x""#).first
                == #"`forge_jwt` forges one of "altered_signature", "altered_claims", "unsigned", not "unsigend""#)
        #expect(
            try typeErrors(#"forge_jwt(1, "unsigned") == "x""#) == ["`forge_jwt` takes a token string, not a number"])
        #expect(try typeErrors(#"slice(body.t, 0, len(body.t) / 2) == forge_jwt(body.t, "altered_claims")"#).isEmpty)
        #expect(parseError("slice(body.t)")?.message.contains("2 to 3 arguments") == true)
    }
}
