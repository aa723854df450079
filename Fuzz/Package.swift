// swift-tools-version: 6.1
// libFuzzer targets for FlowSpec (docs/reliability.md, "Fuzzing"). A package of its own: the targets have no
// `main` (libFuzzer supplies it) and only link with `-sanitize=fuzzer`, so the main package's `swift build` and
// `swift test` must never see them. Build and run them with Fuzz/run.sh.
import PackageDescription

// Each target: main.swift hands over to libFuzzer (FuzzDriver), Fuzz.swift defines LLVMFuzzerTestOneInput and calls
// the harness, which lives in the main package (FlowSpecFuzzing) so that it can use the package-level API.
func fuzzTarget(_ name: String) -> Target {
    .executableTarget(
        name: name, dependencies: ["FuzzDriver", .product(name: "FlowSpecFuzzing", package: "FlowSpec")],
        path: "Sources/\(name)")
}

let package = Package(
    name: "FlowSpecFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "FlowSpec", path: "..")],
    targets: [
        // libFuzzer's driver entry point, called from each target's main.swift.
        .target(name: "FuzzDriver", path: "Sources/FuzzDriver"),
        fuzzTarget("fuzz-flow"),
        fuzzTarget("fuzz-scenario"),
        fuzzTarget("fuzz-expression"),
        fuzzTarget("fuzz-template"),
        fuzzTarget("fuzz-json"),
        fuzzTarget("fuzz-accounts"),
        fuzzTarget("fuzz-response"),
    ],
    swiftLanguageModes: [.v6]
)
