// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "FlowSpec",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "flowspec", targets: ["flowspec"]),
        // For the fuzz package in Fuzz/ (a separate package, so `swift build` here never builds fuzz targets):
        // another package can only depend on a library target through a product. Its targets are shims over
        // FlowSpecFuzzing, the one module with a public API; every other module is `package`.
        .library(name: "FlowSpecFuzzing", targets: ["FlowSpecFuzzing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // Named so the live adapter can tell NIO's connection, TLS and size errors apart (already in the graph).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // To name the HTTP/2 stream codec our status-code guard sits behind (already in the graph via AsyncHTTPClient).
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // NIO's gzip/deflate response decompressor, which the plain-HTTP client puts in its pipeline exactly as
        // AsyncHTTPClient does in its own (already in the graph via AsyncHTTPClient).
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        // No traits: we use neither its swift-configuration support nor its full-Foundation form coding, and with
        // them enabled SwiftPM passes their -D flags in an order that changes between plans, so `swift test` and
        // `swift run` rebuilt Hummingbird after each other (measured on a fresh clone: 104 files, 21 s each time).
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        // Starting and stopping the sandbox in-process (Hummingbird's own lifecycle library).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // HMAC-SHA256 for the sandbox's signed JWTs; hand-written crypto is not an option.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
    ],
    targets: [
        // The language, the pure core every other module shares: model, YAML loading with positions, expressions,
        // templates, static checks, the evaluator (the one semantics of expressions), JWT decoding. No I/O: files
        // are read by FlowSpecLoading. Crypto for the `totp()` function's HMAC-SHA1/256/512 (RFC 6238): the same audited library
        // the sandbox signs its JWTs with. Yams for its vendored libyaml (the CYaml module), whose events
        // YAMLComposer reads directly; Yams' own node tree is not used here (docs/decisions.md).
        .target(
            name: "FlowSpecLanguage",
            dependencies: [
                .product(name: "Yams", package: "Yams"), .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // The loading layer: finds, reads and parses files, and makes the program from them in one call
        // (`ProgramLoader`); the language above never touches the file system.
        .target(name: "FlowSpecLoading", dependencies: ["FlowSpecLanguage"]),
        // The runtime: interpreter, adapter and clock seams, token store, sessions.
        .target(name: "FlowSpecRuntime", dependencies: ["FlowSpecLanguage"]),
        // Scenario files, the scripted adapter, expectations, the runner and its reporters.
        .target(name: "FlowSpecScenarios", dependencies: ["FlowSpecLanguage", "FlowSpecLoading", "FlowSpecRuntime"]),
        // Live HTTP: the only module that imports AsyncHTTPClient.
        .target(
            name: "FlowSpecHTTP",
            dependencies: [
                "FlowSpecRuntime",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                // The plain-HTTP client runs NIO's HTTP/1.1 handlers in an in-memory pipeline (PlainHTTPConnection).
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ]),
        // The sandbox: a faithful in-memory reference backend for the seed APIs (Hummingbird).
        .target(
            name: "FlowSpecSandbox",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                // To read the errno of a listener that could not bind (NIO's IOError), already in the graph.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Yams", package: "Yams"),
            ]),
        // Seeing flows: Mermaid, DOT and SVG diagrams, the flow's graph and its shortest paths. Pure functions of a flow.
        .target(name: "FlowSpecDiagrams", dependencies: ["FlowSpecLanguage"]),
        // Generating scenarios: a skeleton per shortest path to each end, predicted with the language's evaluator.
        .target(name: "FlowSpecScaffold", dependencies: ["FlowSpecLanguage", "FlowSpecDiagrams"]),
        // `flowspec probe`: the standard auth attacks and promises, generated from declared sessions, against a live backend.
        .target(name: "FlowSpecProbe", dependencies: ["FlowSpecLanguage", "FlowSpecRuntime", "FlowSpecScenarios"]),
        // What a run tells the world: the report formats (one type each, listed in ReportFormats), coverage, merging
        // shards' outputs, and the exit-code policy of every command.
        .target(
            name: "FlowSpecReports",
            dependencies: [
                "FlowSpecLanguage", "FlowSpecRuntime", "FlowSpecScenarios", "FlowSpecDiagrams", "FlowSpecProbe",
            ]),
        // What each fuzz target does with one input (the harness), behind the one public API of the package: the
        // libFuzzer shims in Fuzz/ call it, and FlowSpecFuzzingTests replays stored inputs through it.
        .target(
            name: "FlowSpecFuzzing",
            dependencies: [
                "FlowSpecLanguage", "FlowSpecLoading", "FlowSpecRuntime", "FlowSpecScenarios", "FlowSpecReports",
                "FlowSpecSandbox",
            ]),
        .executableTarget(
            name: "flowspec",
            dependencies: [
                "FlowSpecLanguage", "FlowSpecLoading", "FlowSpecRuntime", "FlowSpecScenarios", "FlowSpecHTTP",
                "FlowSpecSandbox",
                "FlowSpecDiagrams", "FlowSpecScaffold", "FlowSpecReports",
                "FlowSpecProbe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(
            name: "FlowSpecLanguageTests",
            dependencies: ["FlowSpecLanguage", "FlowSpecLoading", .product(name: "Yams", package: "Yams")],
            exclude: ["Fixtures"]),
        // What several test targets share (inline specs, named traces, the fake backend, processes); test support only,
        // no product ships it.
        .target(name: "TestSupport", dependencies: ["FlowSpecLanguage", "FlowSpecRuntime"], path: "Tests/TestSupport"),
        .testTarget(
            name: "FlowSpecRuntimeTests", dependencies: ["FlowSpecRuntime", "FlowSpecLanguage", "TestSupport"]),
        .testTarget(
            name: "FlowSpecScenariosTests",
            dependencies: [
                "FlowSpecScenarios", "FlowSpecRuntime", "FlowSpecLanguage", "FlowSpecLoading", "TestSupport",
            ]),
        // A misbehaving loopback server (raw sockets, no dependencies) for the hostile-backend tests of both the
        // adapter and the built binary. Test support only: no product ships it.
        .target(name: "HostileBackend", path: "Tests/HostileBackend"),
        .testTarget(
            name: "FlowSpecHTTPTests",
            dependencies: [
                "FlowSpecHTTP", "FlowSpecRuntime", "FlowSpecLanguage", "HostileBackend",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                // To ask which event loop a task runs on (the live adapter's preferred executor).
                .product(name: "NIOPosix", package: "swift-nio"),
                // To drive the status-code guard handler in an EmbeddedChannel, without a socket.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                // A TLS test server (TLSScriptServer) for backends that misbehave inside TLS.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]),
        // The sandbox served to a test in memory (HummingbirdTesting's router client, no socket) or over loopback
        // sockets with the same test body, and as an HTTPAdapter so flows can run against it. A target of its own so
        // the targets that use TestSupport do not link Hummingbird. Test support only: no product ships it.
        .target(
            name: "SandboxTesting",
            dependencies: [
                "FlowSpecSandbox", "FlowSpecRuntime",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ], path: "Tests/SandboxTesting"),
        .testTarget(
            name: "FlowSpecSandboxTests",
            dependencies: [
                "FlowSpecSandbox", "SandboxTesting", "FlowSpecRuntime", "FlowSpecLanguage",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        // The live suite against the sandbox, and its teeth: the sandbox with promises broken one at a time.
        .testTarget(
            name: "LiveSuiteTests",
            dependencies: [
                "FlowSpecSandbox", "FlowSpecHTTP", "FlowSpecScenarios", "FlowSpecRuntime", "FlowSpecLanguage",
                "FlowSpecProbe",
            ]),
        .testTarget(
            name: "FlowSpecProbeTests",
            dependencies: [
                "FlowSpecProbe", "FlowSpecReports", "FlowSpecScenarios", "FlowSpecRuntime", "FlowSpecLanguage",
            ]),
        // FlowSpecReports too: the highlight tests read their runs from a JSON report, as `flowspec graph --trace` does.
        .testTarget(
            name: "FlowSpecDiagramsTests",
            dependencies: ["FlowSpecDiagrams", "FlowSpecLanguage", "FlowSpecReports", "TestSupport"]),
        .testTarget(
            name: "FlowSpecScaffoldTests",
            dependencies: ["FlowSpecScaffold", "FlowSpecDiagrams", "FlowSpecLanguage", "TestSupport"]),
        .testTarget(
            name: "FlowSpecReportsTests",
            dependencies: [
                "FlowSpecReports", "FlowSpecProbe", "FlowSpecScenarios", "FlowSpecRuntime", "FlowSpecLanguage",
                "TestSupport",
            ]),
        .testTarget(
            name: "FlowSpecFuzzingTests", dependencies: ["FlowSpecFuzzing", "FlowSpecLanguage", "FlowSpecRuntime"]),
        .testTarget(
            name: "EndToEndTests", dependencies: ["flowspec", "FlowSpecRuntime", "HostileBackend", "TestSupport"],
            exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
