// swift-tools-version: 6.1
// libFuzzer targets for FlowSpec (docs/reliability.md, "Fuzzing"). A package of its own: the targets have no
// `main` (libFuzzer supplies it) and only link with `-sanitize=fuzzer`, so the main package's `swift build` and
// `swift test` must never see them. Build and run them with Fuzz/run.sh.
import PackageDescription

// Each target: main.swift hands over to libFuzzer (FuzzDriver), Fuzz.swift defines LLVMFuzzerTestOneInput.
func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzDriver", "FuzzSupport"] + dependencies, path: "Sources/\(name)")
}

let core: Target.Dependency = .product(name: "FlowSpecCore", package: "FlowSpec")

let package = Package(
    name: "FlowSpecFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "FlowSpec", path: "..")],
    targets: [
        // libFuzzer's driver entry point, called from each target's main.swift.
        .target(name: "FuzzDriver", path: "Sources/FuzzDriver"),
        // Helpers shared by the targets: splitting the input, running async code, failing loudly.
        .target(name: "FuzzSupport", dependencies: [core], path: "Sources/FuzzSupport"),
        fuzzTarget("fuzz-flow", [core]),
        fuzzTarget("fuzz-scenario", [core]),
        fuzzTarget("fuzz-expression", [core]),
        fuzzTarget("fuzz-template", [core]),
        fuzzTarget("fuzz-json", [core]),
        fuzzTarget("fuzz-accounts", [.product(name: "FlowSpecSandbox", package: "FlowSpec")]),
        fuzzTarget("fuzz-response", [core]),
    ],
    swiftLanguageModes: [.v6]
)
