/// A response head whose status is not an HTTP status code. RFC 9110 §15 makes a status three digits; clients must
/// accept unknown codes from 100 to 999, so those pass and everything else is refused here.
///
/// Why we check at all: AsyncHTTPClient 1.37.0 treats any code below 200 as a 1xx informational head and drops it,
/// then meets the response's end while still waiting for a head and stops the process (`preconditionFailure` in
/// `HTTPRequestStateMachine.receivedHTTPResponseEnd`). A backend answering `HTTP/1.1 000 Zero` must not crash us.
struct InvalidStatusCode: Error, Sendable, Hashable, CustomStringConvertible {
    /// The status as the server sent it: a number from HTTP/1.1's decoder, the raw `:status` text from HTTP/2
    /// (which can be empty, negative or not a number at all).
    var status: String

    /// The codes a client must accept as statuses, known or not.
    static let acceptable: ClosedRange<UInt> = 100...999

    var description: String {
        status.isEmpty
            ? "the server answered without a status code"
            : "the server answered with status \(status), which is not an HTTP status code (100–999)"
    }
}
