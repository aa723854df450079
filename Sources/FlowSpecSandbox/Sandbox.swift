import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// Starts sandboxes: in-memory reference backends for the APIs described in docs/systems/, in this process.
package enum Sandbox {
    /// Binds both listeners (main and legacy) and returns once both are accepting connections.
    /// Throws `SandboxStartError` when a listener cannot be bound (a port in use, a bad host).
    /// No signal handlers are installed: the caller decides when to `stop()`.
    package static func start(_ options: SandboxOptions) async throws -> RunningSandbox {
        let world = World(accounts: options.accounts, breaks: options.breaks)
        let main = MainBackend(world: world)
        let legacy = LegacyBackend(world: world)
        let (events, announce) = AsyncStream<StartEvent>.makeStream()
        let logger = quietLogger()

        func application(_ listener: Listener, port: Int, handle: @escaping @Sendable (SandboxRequest) async -> Reply)
            -> some Service
        {
            Application(
                responder: SandboxResponder(handle: handle, clock: options.clock),
                configuration: ApplicationConfiguration(address: .hostname(options.host, port: port), serverName: nil),
                onServerRunning: { channel in announce.yield(.bound(listener, channel.localAddress?.port ?? port)) },
                logger: logger)
        }

        // If one listener fails (a port in use), the other is shut down gracefully rather than cancelled:
        // cancellation makes Hummingbird log errors into the caller's test output.
        func configured(_ service: some Service) -> ServiceGroupConfiguration.ServiceConfiguration {
            .init(
                service: service, successTerminationBehavior: .gracefullyShutdownGroup,
                failureTerminationBehavior: .gracefullyShutdownGroup)
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    configured(application(.main, port: options.port, handle: main.respond(to:))),
                    configured(application(.legacy, port: options.legacyPort) { await legacy.respond(to: $0) }),
                ],
                logger: logger))
        let running = Task {
            do {
                try await group.run()
                announce.yield(.finished(nil))
            } catch {
                announce.yield(.finished(error))
            }
            announce.finish()
        }

        var ports: [Listener: Int] = [:]
        for await event in events {
            switch event {
            case .bound(let listener, let port):
                ports[listener] = port
            case .finished(let error):
                await group.triggerGracefulShutdown()
                throw SandboxStartError(
                    host: options.host, port: options.port, legacyPort: options.legacyPort,
                    underlying: error.map(Self.reason) ?? "the server stopped before listening")
            }
            if let mainPort = ports[.main], let legacyPort = ports[.legacy] {
                return RunningSandbox(
                    host: options.host, port: mainPort, legacyPort: legacyPort,
                    accounts: options.accounts, group: group, running: running)
            }
        }
        throw SandboxStartError(
            host: options.host, port: options.port, legacyPort: options.legacyPort,
            underlying: "the server stopped before listening")
    }

    /// "Address already in use (errno 98)" rather than NIO's `bind(descriptor:ptr:bytes:): …) (errno: 98)`.
    static func reason(_ error: any Error) -> String {
        if let io = error as? IOError { return "\(String(cString: strerror(io.errnoCode))) (errno \(io.errnoCode))" }
        return "\(error)"
    }

    /// Warnings and worse only: the sandbox runs inside test processes, whose output should stay readable.
    private static func quietLogger() -> Logger {
        var logger = Logger(label: "flowspec.sandbox")
        logger.logLevel = .warning
        return logger
    }

    enum Listener: Hashable, Sendable {
        case main
        case legacy
    }

    enum StartEvent: Sendable {
        case bound(Listener, Int)
        case finished((any Error)?)
    }
}
