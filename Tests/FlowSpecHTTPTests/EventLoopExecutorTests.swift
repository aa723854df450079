import Foundation
import Testing
import FlowSpecHTTP
import FlowSpecRuntime
import HostileBackend
import NIOPosix

/// The live adapter's preferred executor: a task that prefers it runs on the HTTP client's event loop, before and
/// after awaiting a response, so a request costs no thread switch on our side.
@Suite(.timeLimit(.minutes(5))) struct EventLoopExecutorTests {
    @Test func aTaskPreferringTheAdaptersExecutorRunsOnItsEventLoopAcrossARequest() async throws {
        let server = try HostileServer(reply: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: application/json\r\n\r\n{}")
        defer { server.stop() }
        let adapter = LiveHTTPAdapter()
        let executor = try #require(adapter.preferredExecutor, "a live adapter offers its event loop")
        let (before, status, after) = await withTaskExecutorPreference(executor) {
            let before = MultiThreadedEventLoopGroup.currentEventLoop != nil
            let status = try? await adapter.send(HTTPRequest(method: "GET", baseURL: server.url, path: "/")).status
            return (before, status, MultiThreadedEventLoopGroup.currentEventLoop != nil)
        }
        await adapter.shutdown()
        #expect(status == 200)
        #expect(before, "the task did not start on the client's event loop")
        #expect(after, "the task resumed off the event loop after its response")
        #expect(MultiThreadedEventLoopGroup.currentEventLoop == nil, "without the preference a task runs on Swift's own pool")
    }
}
