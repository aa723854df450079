/// Which of a scenario's scripted exchanges are still open (used fewer times than their `times:`), found without
/// looking at the used-up ones again. Scanning every exchange from the first at each request made a scenario's
/// time quadratic in its number of exchanges.
///
/// In order, the next exchange is the first open one; exchanges are only ever used more, so it only moves forward.
/// In any order, a request can only match exchanges that ask for its method and path or leave them out: those are
/// kept apart, each group in file order with its used-up front skipped, so a request looks at its candidates only.
struct OpenExchanges: Sendable {
    private let times: [Int]
    private(set) var used: [Int]
    private var firstOpen = 0
    private var groups: [Key: Group] = [:]

    /// The method and path an exchange asks for; nil where it matches any.
    private struct Key: Hashable {
        var method: String?
        var path: String?
    }

    /// Exchange indices in file order, and the position of the first that may still be open.
    private struct Group {
        var indices: [Int] = []
        var start = 0
    }

    /// `anyOrder`: group the exchanges for `first(method:path:where:)`; in order only `next()` is asked, and a
    /// scenario's backend is made for every run, so the grouping is not made for nothing.
    init(_ exchanges: [Exchange], anyOrder: Bool) {
        times = exchanges.map(\.times)
        used = Array(repeating: 0, count: exchanges.count)
        guard anyOrder else { return }
        for (index, exchange) in exchanges.enumerated() {
            groups[Key(method: exchange.request.method, path: exchange.request.path), default: Group()].indices.append(
                index)
        }
    }

    func isOpen(_ index: Int) -> Bool { used[index] < times[index] }

    mutating func use(_ index: Int) { used[index] += 1 }

    /// In order: the first open exchange, nil once every one is used up.
    mutating func next() -> Int? {
        while firstOpen < times.count, !isOpen(firstOpen) { firstOpen += 1 }
        return firstOpen < times.count ? firstOpen : nil
    }

    /// In any order: the first open exchange in file order that can take a request with this method and path and
    /// that `matches` accepts.
    mutating func first(method: String, path: String, where matches: (Int) -> Bool) -> Int? {
        var found: Int?
        for key in [
            Key(method: method, path: path), Key(method: method, path: nil), Key(method: nil, path: path),
            Key(method: nil, path: nil),
        ] {
            guard var group = groups[key] else { continue }
            while group.start < group.indices.count, !isOpen(group.indices[group.start]) { group.start += 1 }
            groups[key] = group
            for index in group.indices[group.start...] {
                // A later exchange than one already found in another group cannot be the first.
                if let found, index > found { break }
                if isOpen(index), matches(index) {
                    found = index
                    break
                }
            }
        }
        return found
    }

    /// Every open exchange, in file order.
    var openIndices: [Int] { times.indices.filter(isOpen) }
}
