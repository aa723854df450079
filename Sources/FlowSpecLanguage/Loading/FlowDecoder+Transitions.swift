/// A state's `transitions:` list: guards, `goto`, `set`, `store` and `forget`, with the mistakes people make in them.
extension FlowDecoder {
    static let transitionKeys = ["when", "else", "set", "store", "forget", "goto"]

    /// The value of an unknown key that is a misspelling of `when` or `else` (`wehn:`), if the transition has one.
    static func misspeltGuardKey(_ item: YAMLNode) -> YAMLNode? {
        item.mapping?.first { pair in
            guard let key = pair.key.scalar, !transitionKeys.contains(key) else { return false }
            return Suggestion.closest(to: key, in: ["when", "else"]) != nil
        }?.value
    }

    package static func decodeTransitions(_ list: [YAMLNode], what: String, _ d: inout Diagnostics) -> [Transition] {
        var out: [Transition] = []
        var sawElse: SourceLocation?
        for item in list {
            guard let f = Fields(item, what: "a transition of \(what)", allowed: transitionKeys, diagnostics: &d) else {
                continue
            }
            if let elseAt = sawElse {
                d.error(
                    item.location,
                    "this transition can never be taken: `else` at line \(elseAt.line) already matches everything",
                    hint: "move `else: true` to the end")
            }
            var guardExpr: Expr?
            if f.has("when"), f.has("else") {
                d.error(item.location, "a transition has either `when:` or `else: true`, not both")
            } else if let w = f["when"], w.isNull {
                d.error(
                    w.location, "`when:` is empty", hint: "write a condition such as `status == 200`, or `else: true`")
                guardExpr = Expr(.literal(.bool(false)), at: w.location, text: "")
            } else if let w = f["when"] {
                // Keep a transition whose guard did not parse (as never-true), so its `goto` still counts
                // and one typo does not also make the target look unreachable.
                guardExpr =
                    ExprReader.expression(w, what: "`when`", &d)
                    ?? Expr(.literal(.bool(false)), at: w.location, text: w.scalar ?? "")
            } else if f.has("else") {
                if f.bool("else", &d) != true { d.error(f["else"]!.location, "write `else: true`") }
                sawElse = item.location
            } else if let typo = misspeltGuardKey(item) {
                // `wehn:` already has its "unknown key, did you mean `when`?" error. Keep the transition as
                // never-true so its `goto` and `set` still count: one mistake, one error.
                guardExpr = Expr(.literal(.bool(false)), at: typo.location, text: typo.scalar ?? "")
            } else {
                d.error(item.location, "a transition needs `when: <condition>` or `else: true`")
                continue
            }
            guard let goto = f.string("goto", required: true, &d, hint: "name the next state") else { continue }
            var set: [(String, Expr)] = []
            for (name, value) in f.map("set", &d) ?? [] {
                if Root.isReserved(name.name) {
                    d.error(
                        name.location, "`\(name.name)` is a reserved name and cannot be set",
                        hint: name.name == "store"
                            ? "write to the token store with `store:`"
                            : name.name == Expr.elementName ? Self.elementNameHint : nil)
                    continue
                }
                // A variable is read by its bare name, so a dotted one could never be read: `store.token` here was
                // meant for the token store, and `user.id` for `user_id`.
                if let dot = name.name.firstIndex(of: ".") {
                    let head = String(name.name[..<dot]), rest = String(name.name[name.name.index(after: dot)...])
                    if head == "store" {
                        d.error(
                            name.location, "`set` names flow variables; `\(name.name)` is a token-store key",
                            hint: "write to the token store with `store: { \(rest): … }`")
                    } else {
                        d.error(
                            name.location,
                            "`\(name.name)` cannot be a variable name: a variable is read by its bare name, and `.` reads a member",
                            hint:
                                "name it with letters, digits and `_`, e.g. `\(name.name.replacingOccurrences(of: ".", with: "_"))`"
                        )
                    }
                    continue
                }
                if let e = ExprReader.value(value, what: "`set.\(name.name)`", &d) { set.append((name.name, e)) }
            }
            var store: [(String, Expr)] = []
            for (name, value) in f.map("store", &d) ?? [] {
                if let e = ExprReader.value(value, what: "`store.\(name.name)`", &d) { store.append((name.name, e)) }
            }
            var forget = Transition.Forget.nothing
            if let node = f["forget"] {
                if node.scalar == "all" {
                    forget = .all
                } else if let items = node.sequence, items.allSatisfy({ $0.scalar != nil }) {
                    forget = .keys(items.compactMap(\.scalar))
                } else {
                    d.error(node.location, "`forget` takes a list of store keys, or `all`")
                }
            }
            out.append(
                Transition(
                    guardExpr: guardExpr, set: set, store: store, forget: forget, goto: goto, location: item.location))
        }
        return out
    }
}
