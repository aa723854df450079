import ArgumentParser
import FlowSpecLanguage
import FlowSpecProbe

/// Prints the JSON Schema of flow or scenario files, for editors (yaml-language-server) to complete and validate them.
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema (draft-07) of flow or scenario files, for editor completion and validation.",
        discussion: """
            `flow` covers everything under flows/ (flows and sessions); `scenario` covers scenarios/.
            Save it beside your files: flowspec schema flow > schemas/flow.schema.json (see docs/editor.md).
            """
    )

    @Argument(help: "Which schema: \(SchemaKind.allCases.map(\.rawValue).joined(separator: " or ")).")
    var kind: String

    func run() async throws {
        guard let schema = SchemaKind(rawValue: kind) else {
            let kinds = SchemaKind.allCases.map { "`\($0.rawValue)`" }.joined(separator: ", ")
            Console.error("error: unknown schema `\(kind)`; the schemas are \(kinds) (e.g. flowspec schema flow)")
            throw ExitCode(Exit.invalid)
        }
        print(schema.publishedText, terminator: "")
    }
}
