import FlowSpecRuntime

/// Answers every request with the same fuzzed response.
struct FixedResponse: HTTPAdapter {
    let response: HTTPResponse
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse { response }
}
