import FlowSpecLanguage
import Foundation

/// The one-time-code replay as a flow. The request that redeemed the code reads the login flow's own variables
/// (Repair Minder's 2FA verify sends the `user_id` its login answered), which no caller can see; so the reproduction
/// is the login flow itself, copied from its file, with two changes: when the redeeming request succeeds it is sent
/// again, and every end the login could reach before that is a skip ("not checked") — only the replay decides.
extension ReproductionWriter {
    func codeReplay(_ c: Context, flow name: String, state: String) -> String? {
        guard name == c.login, let flow = specs.flows[name], let source = readFile(flow.file),
            case .success(let root) = YAMLLoader.load(text: source, file: flow.file),
            var top = root.mapping, let states = root["states"]?.mapping,
            let redeem = states.first(where: { $0.key.scalar == state })?.value, let redeeming = redeem.mapping,
            redeem["request"] != nil, let transitions = redeem["on"]?.sequence
        else { return nil }
        let taken = Set(states.compactMap(\.key.scalar))
        func fresh(_ base: String) -> String {
            var name = base, n = 2
            while taken.contains(name) { name = "\(base)_\(n)"; n += 1 }
            return name
        }
        let (replay, held, broken) = (fresh("probe_replay"), fresh("probe_held"), fresh("probe_broken"))
        let succeeded = "status >= 200 && status < 300"

        var copied: [(key: YAMLNode, value: YAMLNode)] = []
        for (key, value) in states {
            if key.scalar == state {
                copied.append(
                    (
                        key,
                        YAMLNode(
                            .mapping(
                                Self.replacing(
                                    "on", in: redeeming,
                                    with: .sequence([Self.map([("when", succeeded), ("goto", replay)])] + transitions)))
                        )
                    ))
            } else if let outcome = value["end"]?.scalar {
                // Reached before the code was redeemed: the replay was not made.
                copied.append(
                    (
                        key,
                        .init(
                            .mapping([
                                (Self.plain("end"), Self.plain(outcome)), (Self.plain("skip"), Self.plain("true")),
                                (
                                    Self.plain("reason"),
                                    Self.text("not checked: the login ended `\(outcome)` before its code was redeemed")
                                ),
                            ]))
                    ))
            } else {
                copied.append((key, value))
            }
        }
        // The very request again: the same method, path, body, headers and session, the same code.
        var again = redeeming.filter { $0.key.scalar != "unreachable" }
        again = Self.replacing(
            "on", in: again,
            with: .sequence([
                Self.map([("when", succeeded), ("goto", broken)]), Self.map([("else", "true"), ("goto", held)]),
            ]))
        copied.append((Self.plain(replay), .init(.mapping(again))))
        copied.append(
            (
                Self.plain(held),
                .init(
                    .mapping([
                        (Self.plain("end"), Self.plain("held")), (Self.plain("success"), Self.plain("true")),
                        (Self.plain("reason"), Self.text("the code was refused the second time")),
                    ]))
            ))
        copied.append(
            (
                Self.plain(broken),
                .init(
                    .mapping([
                        (Self.plain("end"), Self.plain("broken")), (Self.plain("success"), Self.plain("false")),
                        (Self.plain("reason"), Self.text("the request that redeemed the code was accepted again")),
                    ]))
            ))

        top = Self.replacing("states", in: top, with: .mapping(copied))
        top =
            [(Self.plain("flow"), Self.plain(c.flowName)), (Self.plain("title"), Self.text(c.titleText))]
            + top.filter { $0.key.scalar != "flow" && $0.key.scalar != "title" }
        return
            "# A copy of the login flow \(name) (\(flow.file)); the code's request is sent again after it succeeds.\n"
            + YAMLWriter.document(.init(.mapping(top)))
    }

    static func plain(_ text: String) -> YAMLNode { YAMLNode(.scalar(text, quoted: false)) }
    static func text(_ text: String) -> YAMLNode { YAMLNode(.scalar(text, quoted: true)) }
    static func map(_ pairs: [(String, String)]) -> YAMLNode {
        YAMLNode(.mapping(pairs.map { (plain($0.0), plain($0.1)) }))
    }

    /// `pairs` with `key`'s value replaced (or added at the end).
    static func replacing(_ key: String, in pairs: [(key: YAMLNode, value: YAMLNode)], with content: YAMLNode.Content)
        -> [(key: YAMLNode, value: YAMLNode)]
    {
        var out = pairs
        if let index = out.firstIndex(where: { $0.key.scalar == key }) {
            out[index].value = YAMLNode(content)
        } else {
            out.append((plain(key), YAMLNode(content)))
        }
        return out
    }
}
