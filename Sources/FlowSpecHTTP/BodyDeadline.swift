import AsyncHTTPClient
import NIOCore

/// Bounds the reading of a response body by what is left of the request timeout.
///
/// AsyncHTTPClient 1.37.0's `execute(_:timeout:)` deadline stops applying once the response head has arrived ("The
/// user specified deadline is only used until we received the response head", Transaction+StateMachine.swift), so a
/// backend sending a head and then a byte a second would hold a flow for as long as it liked. Cancelling the read
/// cancels the request, which closes the connection.
enum BodyDeadline {
    static func collect(_ body: HTTPClientResponse.Body, upTo maxBytes: Int, within limit: Duration) async throws
        -> ByteBuffer
    {
        try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { try await body.collect(upTo: maxBytes) }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            // The first child to finish decides: the body, its error, or nil for the deadline.
            guard let first = try await group.next(), let collected = first else {
                throw HTTPClientError.deadlineExceeded
            }
            return collected
        }
    }
}
