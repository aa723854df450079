import ArgumentParser
import FlowSpecReports
import FlowSpecRuntime
import Foundation

/// `flowspec merge -o OUT FILES…`: one report from the reports of several shards (`--shard K/N`).
struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the reports of several shards into one: JUnit XML, JSON reports or coverage files.",
        discussion: """
            The kind of each file is read from its content; all files must be of one kind. JUnit: suites of the same \
            name are joined and every count recomputed. JSON: scenarios concatenated, summary recomputed, earliest \
            startedAt, durationSeconds from the earliest start to the latest end. Coverage: counts added up. \
            Exit 0 merged, 2 a file is unreadable, malformed or of another kind, 3 the output could not be written.
            """
    )

    @Argument(help: "The report files to merge (at least one), e.g. shard-1/junit.xml shard-2/junit.xml.")
    var files: [String]

    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp("Where to write the merged report (- for standard output).", valueName: "file"))
    var output: String

    func validate() throws {
        if files.isEmpty {
            throw ValidationError("give the report files to merge, e.g. flowspec merge -o junit.xml shard-*/junit.xml")
        }
        if output.isEmpty { throw ValidationError("-o needs a file name, or - for standard output") }
    }

    func run() async throws {
        if output != "-" { try checkFolder(of: output) }
        let inputs = try files.map(read)
        let merged: (format: any ReportFormat, text: String)
        do {
            merged = try ReportMerge.merge(inputs)
        } catch {
            Console.error("flowspec merge: \(error.description)")
            throw ExitCode(Exit.invalid)
        }
        guard output != "-" else {
            FileHandle.standardOutput.write(Data(merged.text.utf8))
            return
        }
        do { try OutputFile.write(Data(merged.text.utf8), to: output) } catch {
            Console.error("flowspec merge: could not write \(output): \(error.localizedDescription)")
            throw ExitCode(ExitPolicy.reportNotWritten.rawValue)
        }
        Console.error(
            "merged \(inputs.count) \(merged.format.merging?.plural ?? merged.format.name + " reports") into \(output)")
    }

    private func read(_ path: String) throws -> ReportMerge.Input {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            Console.error("flowspec merge: \(path): no such file")
            throw ExitCode(Exit.invalid)
        }
        guard !isDirectory.boolValue else {
            Console.error("flowspec merge: \(path) is a folder; give the report files inside it")
            throw ExitCode(Exit.invalid)
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            Console.error("flowspec merge: could not read \(path): \(error.localizedDescription)")
            throw ExitCode(Exit.invalid)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            Console.error(
                "flowspec merge: \(path) is not UTF-8 text; expected a report written by flowspec run --report")
            throw ExitCode(Exit.invalid)
        }
        return ReportMerge.Input(name: path, text: text)
    }

    /// A typo in the output folder is a usage mistake, found before any work.
    private func checkFolder(of path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        if !folder.isEmpty,
            !(FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue)
        {
            Console.error("flowspec merge: the folder \(folder) does not exist (for -o \(path)); create it first")
            throw ExitCode(Exit.invalid)
        }
    }
}
