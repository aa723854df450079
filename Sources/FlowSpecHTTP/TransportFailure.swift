import AsyncHTTPClient
import FlowSpecRuntime
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL

/// Turns the many error types NIO, AsyncHTTPClient and `PlainHTTPClient` throw into the few kinds a user acts on differently:
/// nothing listening, a wrong host name, a certificate problem, a slow backend, a cut-off body.
enum TransportFailure {
    enum Phase { case beforeResponse, body }

    static func classify(_ error: any Error, url: String, phase: Phase, options: LiveHTTPOptions) -> TransportError {
        let (kind, cause) = describe(error, phase: phase, options: options)
        return TransportError(kind, url: url, cause: cause)
    }

    private static func describe(_ error: any Error, phase: Phase, options: LiveHTTPOptions) -> (
        TransportError.Kind, String
    ) {
        if let e = error as? InvalidStatusCode {
            return (.invalidResponse, e.description)
        }
        if let e = error as? PlainSocket.UnknownHost {
            return (.dns, unresolved(e.host, e.reason))
        }
        if let e = error as? HTTPParserError {
            return malformed(e, phase: phase)
        }
        if error is NIOTooManyBytesError {
            return (.tooLarge, "the response body is larger than the \(options.maxBodyBytes)-byte limit")
        }
        // A compressed body (a gzip bomb, say) that inflates past the limit: too large, not cut short.
        if let e = error as? NIOHTTPDecompression.DecompressionError, e == .limit {
            return (.tooLarge, "the response body, decompressed, is larger than the \(options.maxBodyBytes)-byte limit")
        }
        if let e = error as? HTTPClientError {
            switch e {
            case .connectTimeout where options.requestTimeout < options.connectTimeout:
                // AsyncHTTPClient's connect timeout is cut to the request timeout (see PooledTransport.makeClient).
                return (
                    .timeout,
                    "no complete response within \(seconds(options.requestTimeout)) (request timeout; --request-timeout changes it)"
                )
            case .connectTimeout:
                return (
                    .timeout,
                    "no connection within \(seconds(options.connectTimeout)) (connect timeout; --connect-timeout changes it)"
                )
            case .deadlineExceeded, .readTimeout, .writeTimeout:
                return (
                    .timeout,
                    "no complete response within \(seconds(options.requestTimeout)) (request timeout; --request-timeout changes it)"
                )
            case .tlsHandshakeTimeout:
                return (.tls, "the TLS handshake did not finish in time")
            case .remoteConnectionClosed:
                return phase == .body
                    ? (.truncated, "the server closed the connection before the whole body arrived")
                    : (.other, "the server closed the connection without answering")
            case .bodyLengthMismatch:
                return (.truncated, "the body was shorter than its Content-Length")
            case .redirectLimitReached:
                return (.other, "more than 5 redirects in a row (--follow-redirects follows at most 5)")
            case .redirectCycleDetected:
                return (
                    .other,
                    "the redirects go round in a loop (a URL came back); leave --follow-redirects off to see the first one"
                )
            case .invalidURL, .emptyHost, .emptyScheme:
                return (.other, "not a valid URL — check the flow's base_url and the run variables it uses")
            default:
                break
            }
        }
        if let e = error as? NIOConnectionError {
            if e.connectionErrors.isEmpty, let dns = e.dnsAError ?? e.dnsAAAAError {
                return (.dns, unresolved(e.host, "\(dns)"))
            }
            if let first = e.connectionErrors.first {
                return describe(first.error, phase: phase, options: options)
            }
            return (.dns, unresolved(e.host, nil))
        }
        if let e = error as? IOError {
            switch e.errnoCode {
            case ECONNREFUSED: return (.refused, "connection refused: nothing is listening there")
            case ECONNRESET:
                return phase == .body
                    ? (.truncated, "connection reset while the body was arriving")
                    : (.other, "connection reset by the server")
            case ETIMEDOUT: return (.timeout, "the connection timed out")
            case ENETUNREACH, EHOSTUNREACH: return (.refused, "the network or host is unreachable")
            default: return (.other, e.description)
            }
        }
        if error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError {
            return (
                .tls,
                "TLS failed: \(error) — a self-signed or wrong certificate? --insecure skips verification (not for production)"
            )
        }
        if let e = error as? ChannelError {
            switch e {
            case .connectTimeout:
                return (.timeout, "no connection within \(seconds(options.connectTimeout))")
            // The server closed a kept-alive connection just as the next request (a redirect's, say) went out on it.
            case .ioOnClosedChannel, .outputClosed, .eof, .alreadyClosed:
                return phase == .body
                    ? (.truncated, "the server closed the connection before the whole body arrived")
                    : (.other, "the server closed the connection without answering")
            default:
                break
            }
        }
        let text = String(describing: error)
        if text.contains("refused") { return (.refused, "connection refused: nothing is listening there") }
        if phase == .body { return (.truncated, "the body could not be read completely: \(text)") }
        if text.lowercased().contains("ssl") || text.lowercased().contains("tls") || text.contains("certificate") {
            return (.tls, "TLS failed: \(text)")
        }
        return (.other, text)
    }

    /// NIO's HTTP/1.1 decoder refused the bytes. Its error names are llhttp's; these say what the server sent.
    private static func malformed(_ error: HTTPParserError, phase: Phase) -> (TransportError.Kind, String) {
        switch error {
        case .invalidConstant, .invalidVersion:
            return (
                .invalidResponse,
                "the answer does not begin with an HTTP/1.x status line (garbage, or an HTTP/0.9 body without one)"
            )
        case .invalidStatus:
            return (.invalidResponse, "the status line has no valid status code (HTTP needs three digits, 100–999)")
        case .invalidChunkSize:
            return (.invalidResponse, "the chunked body has an invalid chunk size")
        case .invalidContentLength, .unexpectedContentLength:
            return (.invalidResponse, "the response's Content-Length is invalid")
        case .headerOverflow:
            return (.invalidResponse, "the response head is too large")
        case .invalidEOFState, .closedConnection:
            return phase == .body
                ? (.truncated, "the server closed the connection before the whole body arrived")
                : (.truncated, "the server closed the connection in the middle of the response head")
        default:
            return (.invalidResponse, "the answer is not valid HTTP/1.1 (\(error))")
        }
    }

    /// One wording for a host name that does not resolve, whichever client looked it up.
    static func unresolved(_ host: String, _ reason: String?) -> String {
        "the host name \(host) does not resolve" + (reason.map { " (\($0))" } ?? "")
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
