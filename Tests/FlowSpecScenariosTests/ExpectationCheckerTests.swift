import Testing

@testable import FlowSpecLanguage
@testable import FlowSpecRuntime
@testable import FlowSpecScenarios

@Suite(.timeLimit(.minutes(5))) struct ExpectationCheckerTests {
    static func expecting(_ namespace: String, _ key: String, _ value: String) -> FlowSpecScenarios.Expectation {
        FlowSpecScenarios.Expectation(
            location: SourceLocation(file: "s.yaml", line: 1, column: 1),
            store: [(StoreKey(namespace: namespace, key: key), .string(value))])
    }

    @Test func aKeyWrittenToAnotherNamespaceIsPointedOut() {
        let checker = ExpectationChecker(redactor: Redactor())
        let failures = checker.checkStore(
            Self.expecting("demo", "role", "admin"), ["default": ["role": .string("admin")]])
        #expect(
            failures == [
                "expected store demo.role = \"admin\", got nothing — `role` is in namespace `default`; a flow writes to its `namespace:`, else its session's, else `default`"
            ])
    }

    @Test func otherwiseTheNamespaceSaysWhatItHolds() {
        let checker = ExpectationChecker(redactor: Redactor())
        #expect(
            checker.checkStore(Self.expecting("demo", "role", "admin"), ["demo": ["user": .string("u1")]])
                == ["expected store demo.role = \"admin\", got nothing (namespace `demo` holds user)"])
        #expect(
            checker.checkStore(Self.expecting("demo", "role", "admin"), [:])
                == ["expected store demo.role = \"admin\", got nothing (namespace `demo` is empty)"])
    }
}
