import FlowSpecRuntime
import Foundation

/// Writes rendered reports where their requests say: a file (atomically, so a reader never sees half of one) or
/// standard output. The same for `run`, `coverage` and `probe`.
package enum ReportOutput {
    /// Writes `text` for `request`; the error names the format and the file. A report that cannot be written is an
    /// infrastructure failure (`ExitPolicy.reportNotWritten`), whichever command wrote it.
    package static func write(_ text: String, for request: ReportRequest) throws(ReportWriteError) {
        guard let path = request.path else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        do { try OutputFile.write(Data(text.utf8), to: path) } catch {
            throw ReportWriteError(
                description: "--report \(request.format.name): could not write \(path): \(error.localizedDescription)")
        }
    }
}

package struct ReportWriteError: Error, Sendable, CustomStringConvertible {
    package var description: String
}
