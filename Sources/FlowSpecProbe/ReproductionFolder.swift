import FlowSpecRuntime
import Foundation

/// `probe --reproduce DIR`: one flow (`DIR/probe/STEM.yaml`, and any flow it needs beside it) and one scenario
/// (`DIR/STEM.yaml`) per reproducible BROKEN verdict, each file written atomically.
package enum ReproductionFolder {
    /// A file or folder that could not be written; the files already written stay whole.
    package struct Failure: Error, Sendable {
        package let message: String
    }

    /// Writes the reproductions `writer` makes into `directory`, saying each one (or why a verdict has none)
    /// through `say`.
    package static func write(
        _ verdicts: [ProbeVerdict], _ declarations: [ProbeDeclaration], into directory: String,
        writer: ReproductionWriter, say: (String) -> Void
    ) throws(Failure) {
        let broken = verdicts.filter { $0.status == .broken }
        guard !broken.isEmpty else { return }
        let flows = URL(fileURLWithPath: directory).appendingPathComponent("probe")
        do {
            try FileManager.default.createDirectory(at: flows, withIntermediateDirectories: true)
        } catch {
            throw Failure(message: "cannot create \(flows.path): \(error.localizedDescription)")
        }
        for verdict in broken {
            let what =
                "\(verdict.session) \(verdict.kind.rawValue)\(verdict.check.isEmpty ? "" : " · \(verdict.check)")"
            guard let declaration = declarations.first(where: { $0.session.name == verdict.session }),
                let files = writer.files(for: verdict, declaration)
            else {
                say(
                    "no reproduction for \(what): it needs a value a flow cannot read or a comparison a scenario cannot make (docs/probe.md, Reproductions); the JSON report has the exchanges"
                )
                continue
            }
            let scenario = URL(fileURLWithPath: directory).appendingPathComponent("\(files.stem).yaml").path
            do {
                try AtomicFile.write(Data(files.flow.utf8), to: flows.appendingPathComponent("\(files.stem).yaml").path)
                for (stem, text) in files.moreFlows.sorted(by: { $0.key < $1.key }) {
                    try AtomicFile.write(Data(text.utf8), to: flows.appendingPathComponent("\(stem).yaml").path)
                }
                try AtomicFile.write(Data(files.scenario.utf8), to: scenario)
            } catch {
                throw Failure(message: "cannot write the reproduction of \(what): \(error.localizedDescription)")
            }
            say("reproduction of \(what): \(scenario)")
        }
        say("run them with: flowspec run \(directory) --flows <your flows folder> [--vars-file …]")
    }
}
