import FlowSpecLanguage
import FlowSpecRuntime
import Foundation

/// Asks for a missing input on the terminal; secret inputs are read with echo off.
struct TerminalPrompter: InputPrompter {
    /// Only when a person is there to answer: stdin and stderr are terminals.
    static var available: Bool { isatty(STDIN_FILENO) != 0 && isatty(STDERR_FILENO) != 0 }

    func ask(_ input: InputDecl, flow: String) async throws(InputError) -> String? {
        let label = input.prompt ?? input.name
        Console.prompt("\(label): ")
        let line = input.secret ? Self.readWithoutEcho() : readLine(strippingNewline: true)
        if input.secret { Console.prompt("\n") }
        guard let line else { throw InputError("no answer (end of input) at the prompt") }
        return line.trimmingCharacters(in: .whitespaces)
    }

    private static func readWithoutEcho() -> String? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return readLine(strippingNewline: true) }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
        return readLine(strippingNewline: true)
    }
}
