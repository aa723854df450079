import FlowSpecLanguage

/// Source-like text for a sub-expression. The parser gives every node the whole guard's text, so the part of
/// a guard that blocks a path (`attempts + 1 >= 3` inside a longer `&&`) is printed from the tree instead.
enum ScaffoldExprText {
    static func render(_ expr: Expr) -> String { render(expr, 0) }

    private static func precedence(_ op: BinaryOp) -> Int {
        switch op {
        case .or: 1
        case .and: 2
        case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual, .contains: 3
        case .add, .subtract: 4
        case .multiply, .divide, .remainder: 5
        }
    }

    private static func render(_ expr: Expr, _ outer: Int) -> String {
        switch expr.kind {
        case .literal(let value): return value.compactJSON
        case .root(let root): return root.rawValue
        case .variable(let name): return name
        case .member(let base, let name): return render(base, 7) + "." + name
        case .index(let base, let index): return render(base, 7) + "[" + render(index, 0) + "]"
        case .unary(let op, let operand): return op.rawValue + render(operand, 6)
        case .binary(let op, let l, let r):
            let p = precedence(op)
            let text = render(l, p) + " " + op.rawValue + " " + render(r, p + 1)
            return p < outer ? "(" + text + ")" : text
        case .call(let function, let args):
            return function.rawValue + "(" + args.map { render($0, 0) }.joined(separator: ", ") + ")"
        case .list(let items): return "[" + items.map { render($0, 0) }.joined(separator: ", ") + "]"
        case .element: return Expr.elementName
        }
    }
}
