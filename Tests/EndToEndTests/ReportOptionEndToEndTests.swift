import Foundation
import Testing

/// `--report` is one option with one list of formats and one exit-code policy, whichever command takes it: `run`
/// and `probe` agree on a report that cannot be written (exit 3), on which formats exist, and on where the
/// console goes when a report owns standard output.
@Suite(.timeLimit(.minutes(5))) struct ReportOptionEndToEndTests {
    /// `/dev/full` refuses every write: both commands say which report failed and exit 3, the exit of a machine
    /// problem, never 2 (a mistake in the command) or 0.
    @Test func aReportThatCannotBeWrittenIsExitThreeForRunAndProbeAlike() async throws {
        var info = stat()
        guard stat("/dev/full", &info) == 0 else { return }
        let run = try await FlowSpecBinary.run([
            "run", "scenarios/repairminder/customer-logout-without-token.yaml", "--report", "json=/dev/full",
        ])
        #expect(run.status == 3, "\(run.all)")
        #expect(run.stderr.contains("--report json: could not write /dev/full"), "\(run.stderr)")
        let probe = try await FlowSpecBinary.run([
            "probe", "flows/repairminder", "--probe", "garbage", "--report", "json=/dev/full",
        ])
        #expect(probe.status == 3, "\(probe.all)")
        #expect(probe.stderr.contains("--report json: could not write /dev/full"), "\(probe.stderr)")
        #expect(probe.stdout.contains("held     garbage"), "the verdicts are still printed: \(probe.stdout)")
    }

    /// A probe run has no coverage form: refused before anything runs, naming what a probe can write.
    @Test func aProbeRefusesACoverageReportBeforeRunning() async throws {
        let result = try await FlowSpecBinary.run(["probe", "flows/repairminder", "--report", "coverage=c.json"])
        #expect(result.status == 2, "\(result.all)")
        #expect(
            result.stderr.contains("`coverage` is not available here; use one of junit, json, tap, html"),
            "\(result.stderr)")
        #expect(!result.stdout.contains("probe repairminder"), "nothing ran: \(result.stdout)")
    }

    /// With TAP on standard output, the probe's console lines go to standard error, as `run`'s do: a TAP consumer
    /// reads clean TAP.
    @Test func aProbeReportOnStandardOutputMovesTheConsoleToStandardError() async throws {
        let result = try await FlowSpecBinary.run([
            "probe", "flows/repairminder", "--probe", "garbage", "--report", "tap",
        ])
        #expect(result.status == 0, "\(result.all)")
        #expect(result.stdout.hasPrefix("TAP version 13"), "\(result.stdout)")
        #expect(!result.stdout.contains("held     garbage"), "\(result.stdout)")
        #expect(result.stderr.contains("held     garbage"), "\(result.stderr)")
        #expect(result.stderr.contains(" held, 0 broken"), "\(result.stderr)")
    }

    /// A report in a folder that does not exist is a usage mistake, found before the probes log in.
    @Test func aProbeReportInAMissingFolderIsRefusedFirst() async throws {
        let result = try await FlowSpecBinary.run([
            "probe", "flows/repairminder", "--report", "junit=no-such-folder/j.xml",
        ])
        #expect(result.status == 2, "\(result.all)")
        #expect(result.stderr.contains("the folder no-such-folder does not exist"), "\(result.stderr)")
        #expect(!result.stdout.contains("probe repairminder"), "\(result.stdout)")
    }
}
