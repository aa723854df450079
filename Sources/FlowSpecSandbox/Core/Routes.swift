import Foundation

/// A small method + path table. Patterns are literal segments and `:name` parameters; the sandbox needs
/// nothing more, and owning the dispatch lets it answer unknown paths with the documented error shape
/// (`{"error": "Not found"}`) and a wrong method with 405 instead of Hummingbird's defaults.
struct Route: Sendable {
    /// Handlers throw a `Rejection` to answer early (bad body, failed authentication). Async so that a break
    /// can hold a request between its check and its write (`non-atomic-rotation`); the healthy routes never suspend.
    typealias Handler = @Sendable (SandboxRequest, [String: String]) async throws -> Reply

    let method: String
    let segments: [Substring]
    let handle: Handler

    init(_ method: String, _ pattern: String, _ handle: @escaping Handler) {
        self.method = method
        self.segments = Route.split(pattern)
        self.handle = handle
    }

    static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    /// The parameters when `path` matches, else nil.
    func match(_ path: [Substring]) -> [String: String]? {
        guard path.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (pattern, actual) in zip(segments, path) {
            if pattern.hasPrefix(":") {
                parameters[String(pattern.dropFirst())] = String(actual).removingPercentEncoding ?? String(actual)
            } else if pattern != actual {
                return nil
            }
        }
        return parameters
    }
}

enum Dispatch {
    case handled(Reply)
    /// The path exists with other methods.
    case wrongMethod(allowed: [String])
    case noRoute
}

struct RouteTable: Sendable {
    var routes: [Route]

    func dispatch(_ request: SandboxRequest) async -> Dispatch {
        let path = Route.split(request.path)
        var allowed: [String] = []
        for route in routes {
            guard let parameters = route.match(path) else { continue }
            // HEAD is answered like GET by most servers; the sandbox keeps it simple and treats them alike.
            if route.method == request.method || (route.method == "GET" && request.method == "HEAD") {
                return .handled(await Rejection.catching { try await route.handle(request, parameters) })
            }
            allowed.append(route.method)
        }
        return allowed.isEmpty ? .noRoute : .wrongMethod(allowed: allowed)
    }
}

/// An early answer: handlers throw it from helpers (authentication, body parsing) instead of threading
/// optional replies through every call.
struct Rejection: Error {
    let reply: Reply

    init(_ reply: Reply) {
        self.reply = reply
    }

    static func catching(_ body: () async throws -> Reply) async -> Reply {
        do {
            return try await body()
        } catch let rejection as Rejection {
            return rejection.reply
        } catch {
            return .error(500, "Internal sandbox error: \(error)")
        }
    }
}
