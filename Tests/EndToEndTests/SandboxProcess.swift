import Foundation

/// `flowspec sandbox` started as a user starts it, on free ports, with its live-suite variables written to a
/// file; stopped with SIGTERM as Ctrl-C would.
final class SandboxProcess {
    let process = Process()
    let varsFile: URL
    let vars: [String: String]

    init(arguments: [String] = []) throws {
        let dir = try FlowSpecBinary.temporaryDirectory()
        varsFile = dir.appendingPathComponent("sandbox-vars.yaml")
        process.executableURL = FlowSpecBinary.url
        process.arguments = ["sandbox", "--port", "0", "--legacy-port", "0", "--write-vars", varsFile.path] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: varsFile.path), Date() < deadline, process.isRunning {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let text = (try? String(contentsOf: varsFile, encoding: .utf8)) ?? ""
        var parsed: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            var value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"") }
            parsed[String(line[..<colon])] = value
        }
        vars = parsed
    }

    func stop() -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
