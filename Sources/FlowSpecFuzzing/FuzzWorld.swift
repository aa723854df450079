import FlowSpecLanguage
import FlowSpecRuntime
import Foundation

/// What an expression or template can read, built from a fuzzed JSON value so that every root holds something
/// of the fuzzer's choosing: the response body, its headers, the store, run variables, flow variables, inputs
/// (not a sub-flow's result, whose initializer the runtime keeps to itself).
enum FuzzWorld {
    static let location = SourceLocation(file: "fuzz.yaml", line: 1, column: 1)
    static let inputNames: Set<String> = ["email", "password", "code"]

    static func environment(_ json: Data) -> Environment {
        let value = JSONValue.parse(json) ?? .string(String(decoding: json, as: UTF8.self))
        var env = Environment()
        let fields = value.objectValue ?? [:]
        var headers: [(String, String)] = [("Content-Type", "application/json")]
        for (name, field) in (fields["headers"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            headers.append((name, field.interpolated))
        }
        env.response = HTTPResponse(
            status: Int(exactly: fields["status"]?.numberValue ?? 200) ?? 200, headers: headers, body: json)
        // No call result: its initializer is internal to the runtime; `outcome`, `outputs`… then read null.
        for name in inputNames { env.inputs[name] = fields[name]?.interpolated ?? "\(name)-value" }
        env.variables = fields
        env.store = fields["store"]?.objectValue ?? fields
        env.vars = fields["vars"]?.objectValue ?? fields
        // `now` feeds totp() and time arithmetic: let the fuzzer reach huge, negative and fractional times.
        env.now = fields["now"]?.numberValue ?? 1_790_000_000
        env.redactor = Redactor()
        return env
    }

    /// Where an expression may read everything: a request state's transition, after a sub-flow call.
    static let context = ExprContext(
        place: "a transition", hasResponse: true, hasCallResult: true, declaredInputs: inputNames)
}
