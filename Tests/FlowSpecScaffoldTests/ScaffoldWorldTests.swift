import FlowSpecLanguage
import Testing

@testable import FlowSpecScaffold

/// The scenario generator evaluates with the interpreter's own evaluator: what it can know it computes as a run
/// would (functions included), and what it cannot know stays unknown rather than guessed.
@Suite(.timeLimit(.minutes(5))) struct ScaffoldWorldTests {
    static func expr(_ text: String) throws -> Expr {
        switch ExpressionParser.parse(text, at: SourceLocation(file: "w.yaml", line: 1, column: 1)) {
        case .success(let e): return e
        case .failure(let d): throw d
        }
    }

    /// A JWT whose claims are {"sub":"u1","role":"admin"}.
    static let token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSIsInJvbGUiOiJhZG1pbiJ9.c2ln"

    static var world: ScaffoldWorld {
        var w = ScaffoldWorld()
        w.status = 200
        w.body = .object(["access_token": .string(token), "code": .string("AB12")])
        w.inputs = ["email": "qa@example.com"]
        w.store = ["refresh_token": .string("r1")]
        w.unknownStore = ["device"]
        return w
    }

    @Test func functionsAreEvaluatedAsARunWould() throws {
        let w = Self.world
        #expect(w.evaluate(try Self.expr("jwt(body.access_token).role")) == .string("admin"))
        #expect(w.truth(try Self.expr("matches(body.code, \"^[A-Z]{2}[0-9]{2}$\")")) == true)
        #expect(w.evaluate(try Self.expr("slice(inputs.email, 0, 2)")) == .string("qa"))
        #expect(w.evaluate(try Self.expr("len(store.refresh_token) + 1")) == .number(3))
        #expect(w.truth(try Self.expr("status == 200 && exists(body.code)")) == true)
    }

    @Test func whatIsNotKnownStaysUnknown() throws {
        let w = Self.world
        #expect(w.evaluate(try Self.expr("store.device")) == nil)
        #expect(w.evaluate(try Self.expr("inputs.phone")) == nil)
        #expect(w.evaluate(try Self.expr("vars.base")) == nil)
        #expect(w.evaluate(try Self.expr("user_id")) == nil)
        #expect(w.evaluate(try Self.expr("outputs")) == nil)
        // Absent from a store the scenario set up is known: absent.
        #expect(w.evaluate(try Self.expr("store.other")) == .null)
        // What would fail at run time has no predicted value either.
        #expect(w.truth(try Self.expr("body.code")) == nil)
        #expect(w.evaluate(try Self.expr("1 / 0")) == nil)
        #expect(w.evaluate(try Self.expr("forge_jwt(body.code, \"unsigned\")")) == nil)
    }
}
