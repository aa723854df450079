import Foundation
import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime

/// `matches(s, "re")`: a literal pattern is compiled once, when parsed; a computed one at evaluation; the answers
/// are the same either way.
@Suite(.timeLimit(.minutes(5))) struct MatchesFunctionTests {
    static let here = SourceLocation(file: "flows/t/x.yaml", line: 3, column: 9)

    static func parse(_ text: String) throws -> Expr {
        guard case .success(let expr) = ExpressionParser.parse(text, at: here) else { throw CancellationError() }
        return expr
    }

    static func evaluate(_ expr: Expr, _ vars: [String: JSONValue]) throws -> JSONValue {
        var env = Environment()
        env.vars = vars
        return try Evaluator.evaluate(expr, env)
    }

    @Test func aLiteralPatternIsCompiledWhenParsed() throws {
        let literal = try Self.parse(#"matches(vars.s, "^ab+c$")"#)
        #expect(literal.literalPattern?.pattern == "^ab+c$")
        #expect(try Self.evaluate(literal, ["s": .string("abbbc")]) == .bool(true))
        #expect(try Self.evaluate(literal, ["s": .string("ac")]) == .bool(false))
        #expect(try Self.evaluate(literal, ["s": .number(12)]) == .bool(false)) // not a string: no match, as before
    }

    @Test func aComputedPatternIsCompiledWhenEvaluated() throws {
        let computed = try Self.parse("matches(vars.s, vars.p)")
        #expect(computed.literalPattern == nil)
        #expect(try Self.evaluate(computed, ["s": .string("abbbc"), "p": .string("^ab+c$")]) == .bool(true))
        #expect(try Self.evaluate(computed, ["s": .string("abbbc"), "p": .string("^c")]) == .bool(false))
        #expect(throws: EvaluationError.self) { try Self.evaluate(computed, ["s": .string("a"), "p": .string("[")]) }
    }

    @Test func anInvalidLiteralPatternStillFailsAtEvaluation() throws {
        let invalid = try Self.parse(#"matches(vars.s, "[")"#)
        #expect(invalid.literalPattern == nil)
        #expect(throws: EvaluationError.self) { try Self.evaluate(invalid, ["s": .string("a")]) }
    }
}
