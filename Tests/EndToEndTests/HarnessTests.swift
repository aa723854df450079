import Foundation
import Testing

/// The end-to-end harness itself: past its descriptor ceiling it refuses to start the binary with a clear error,
/// rather than letting Foundation's `Process.run` crash the whole test process.
@Suite(.timeLimit(.minutes(5))) struct HarnessTests {
    @Test func pastTheDescriptorCeilingTheBinaryIsNotStarted() throws {
        let process = FlowSpecBinary.prepared(["--version"], in: FlowSpecBinary.root, environment: [:], removing: [])
        let refusal = #expect(throws: FlowSpecBinary.TooManyDescriptors.self) {
            try FlowSpecBinary.start(process, ceiling: 2)
        }
        #expect(refusal?.description.contains("descriptors open") == true)
        #expect(!process.isRunning)
        // Under the ceiling it starts as before.
        let started = FlowSpecBinary.prepared(["--version"], in: FlowSpecBinary.root, environment: [:], removing: [])
        started.standardOutput = FileHandle.nullDevice
        try FlowSpecBinary.start(started)
        started.waitUntilExit()
        #expect(started.terminationStatus == 0)
    }
}
