import Foundation
import Testing

@testable import FlowSpecRuntime

/// A command ends when its shell exits: what it started in the background dies with it, a daemon that escaped its
/// process group keeps nobody waiting, and a command that prints without end is stopped at the output limit.
@Suite(.timeLimit(.minutes(4))) struct ShellCommandTests {
    static func marker() -> String { "\(Int.random(in: 100_000...999_999))" }

    /// Kills what a test left running, found by the marker in its command line.
    static func killAll(_ marker: String) {
        for pid in InputSourceTests.processes(containing: marker) { kill(pid, SIGKILL) }
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// `setsid` takes the daemon out of the command's process group, so it cannot be killed with it; it still
    /// holds the output pipe. FlowSpec read that pipe to its end, so it waited for the daemon's whole life —
    /// past the command's own timeout.
    @Test func aDaemonHoldingTheOutputPipeDoesNotKeepFlowSpecWaiting() async throws {
        let marker = Self.marker()
        defer { Self.killAll(marker) }
        let start = ContinuousClock.now
        // The daemon outlives both the bound and the command's timeout, so waiting for either fails the test;
        // the bound is loose because the whole suite runs at once on two cores.
        let value = try await ShellCommand("setsid sleep 110.\(marker) & echo 4242", timeoutSeconds: 100).run()
        #expect(value == "4242")
        #expect(Self.seconds(since: start) < 90, "waited \(Self.seconds(since: start)) s for a daemon")
    }

    /// A child left in the background (its output elsewhere) outlived the command, and flowspec.
    @Test func aBackgroundChildDiesWhenTheCommandEnds() async throws {
        let marker = Self.marker()
        defer { Self.killAll(marker) }
        let value = try await ShellCommand("sleep 20.\(marker) >/dev/null 2>&1 & echo 4242").run()
        #expect(value == "4242")
        let deadline = Date().addingTimeInterval(5)
        while !InputSourceTests.processes(containing: marker).isEmpty, Date() < deadline { usleep(20_000) }
        #expect(InputSourceTests.processes(containing: marker).isEmpty, "the background child outlived its command")
    }

    /// `yes` prints without end: it is stopped at the limit, with a reason, long before its timeout (it took memory
    /// until the timeout: 3.9 GB for a command printing 1 GB).
    @Test func endlessOutputIsStoppedAtTheLimit() async throws {
        let start = ContinuousClock.now
        await #expect { try await ShellCommand("yes", timeoutSeconds: 100).run() } throws: { error in
            "\(error)".contains("printed more than 1 MiB on its standard output")
        }
        await #expect { try await ShellCommand("yes >&2; echo 1", timeoutSeconds: 100).run() } throws: { error in
            "\(error)".contains("printed more than 1 MiB on its standard error")
        }
        // Far below the timeouts (which the old reading ran into, holding everything printed): loose for a loaded suite.
        #expect(Self.seconds(since: start) < 90)
        // Just under the limit is a value like any other.
        let value = try await ShellCommand("head -c \(ShellCommand.outputLimit - 1) /dev/zero | tr '\\0' a").run()
        #expect(value.utf8.count == ShellCommand.outputLimit - 1)
    }

    /// What a command prints just before it exits is all read, on both streams.
    @Test func everythingPrintedBeforeTheExitIsRead() async throws {
        let value = try await ShellCommand("head -c 300000 /dev/zero | tr '\\0' b; printf end").run()
        #expect(value.utf8.count == 300_003 && value.hasSuffix("end"))
        await #expect { try await ShellCommand("echo 'no such mailbox' >&2; exit 7").run() } throws: { error in
            "\(error)".contains("status 7: no such mailbox")
        }
    }
}
