import Foundation
import Testing

@testable import FlowSpecLanguage

/// `SpecSet.flow(_:otherwise:reportingTo:)`, which flows, sessions, scenarios and probe files use for the flows they name.
@Suite(.timeLimit(.minutes(5))) struct ReferencedFlowTests {
    let program = specs(["demo/login.yaml": validFlow])
    let here = SourceLocation(file: "s.yaml", line: 3, column: 7)

    @Test func aLoadedFlowIsFoundAndNothingIsReported() {
        var d = Diagnostics()
        #expect(
            program.flow(NameRef("demo.login", at: here), otherwise: "unused", reportingTo: &d)?.name == "demo.login")
        #expect(d.items.isEmpty)
    }

    @Test func aMisspeltFlowIsReportedWithTheClosestName() {
        var d = Diagnostics()
        #expect(program.flow(NameRef("demo.logn", at: here), otherwise: "unused", reportingTo: &d) == nil)
        #expect(
            d.items == [.error(here, "unknown flow `demo.logn`", hint: "did you mean `demo.login`?")])
    }

    @Test func aFlowCloseToNoneIsReportedWithTheCallersHintOrNone() {
        var d = Diagnostics()
        #expect(
            program.flow(NameRef("other.thing", at: here), otherwise: "where flows come from", reportingTo: &d) == nil)
        #expect(program.flow(NameRef("other.thing", at: here), reportingTo: &d) == nil)
        #expect(
            d.items == [
                .error(here, "unknown flow `other.thing`", hint: "where flows come from"),
                .error(here, "unknown flow `other.thing`"),
            ])
    }

    /// A name as close to two flows gets the same one every run, not whichever the dictionary holds first.
    @Test func aTieIsBrokenByName() {
        let two = specs([
            "demo/login.yaml": validFlow,
            "demo/logon.yaml": validFlow.replacingOccurrences(of: "flow: demo.login", with: "flow: demo.logon"),
        ])
        var d = Diagnostics()
        #expect(two.flow(NameRef("demo.logxn", at: here), reportingTo: &d) == nil)
        #expect(d.items.map(\.hint) == ["did you mean `demo.login`?"])
    }
}
