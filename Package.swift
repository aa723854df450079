// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "FlowSpec",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "flowspec", targets: ["flowspec"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        // The language: model, YAML loading with positions, expressions, templates, static checks. No I/O beyond reading files.
        .target(name: "FlowSpecLanguage", dependencies: [.product(name: "Yams", package: "Yams")]),
        // The runtime: interpreter, adapter and clock seams, token store, sessions.
        .target(name: "FlowSpecRuntime", dependencies: ["FlowSpecLanguage"]),
        // Scenario files, the scripted adapter, expectations, the runner and its reporters.
        .target(name: "FlowSpecScenarios", dependencies: ["FlowSpecLanguage", "FlowSpecRuntime"]),
        .executableTarget(name: "flowspec", dependencies: [
            "FlowSpecLanguage", "FlowSpecRuntime", "FlowSpecScenarios",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .testTarget(name: "FlowSpecLanguageTests", dependencies: ["FlowSpecLanguage"]),
        .testTarget(name: "FlowSpecRuntimeTests", dependencies: ["FlowSpecRuntime", "FlowSpecLanguage"]),
        .testTarget(name: "FlowSpecScenariosTests", dependencies: ["FlowSpecScenarios", "FlowSpecRuntime", "FlowSpecLanguage"]),
        .testTarget(name: "EndToEndTests", dependencies: ["flowspec"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
