import FlowSpecRuntime
import Foundation

extension HTTPResponse {
    /// Input layout, like HTTP on the wire: a status line, `Name: value` header lines, an empty line, the body.
    /// A status that is not a number from 0 to 999 (all a real client can deliver) is read as 200.
    init(fuzzed data: Data) {
        var rest = data
        var lines: [String] = []
        while !rest.isEmpty {
            let (line, after) = FuzzInput.split(rest)
            rest = after
            if line.isEmpty { break }
            lines.append(String(decoding: line, as: UTF8.self))
        }
        let status =
            lines.first.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.flatMap {
                (0...999).contains($0) ? $0 : nil
            } ?? 200
        let headers: [(String, String)] = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        self.init(status: status, headers: headers, body: Data(rest))
    }
}
