import FlowSpecLanguage

// Over 300 lines on purpose: the four steps of one layered layout (below) share the builder's rank, layer and
// position tables; apart, each would need the others' state passed in and out.

/// Where every state box, edge route and guard label of a flow diagram goes: a layered (Sugiyama-style)
/// layout, top to bottom.
///
/// 1. Ranks: a depth-first walk from the start state finds back edges (the re-ask-a-code loops); with them
///    turned around the graph is acyclic, and each state's rank is its longest path from a root.
/// 2. Every edge spanning more than one layer gets dummy points, one per layer it crosses. Ranks are doubled
///    so each edge crosses a "label layer" right next to its source, where its guard label sits as a box of
///    its own (the way Graphviz does it): labels then never overlap states or each other.
/// 3. Order within layers: barycentre sweeps down and up, keeping the order with the fewest crossings.
/// 4. x: each box moves toward the mean of its neighbours, overlaps resolved by a left and a right pass.
///
/// Pure and deterministic: the same graph and sizes give the same coordinates. Large flows stay cheap because
/// dummy points are budgeted: past `maxDummies` the longest edges are drawn straight instead.
package struct SVGLayout: Sendable {
    package struct Point: Sendable, Equatable {
        package var x: Double
        package var y: Double
        package init(_ x: Double, _ y: Double) {
            self.x = x
            self.y = y
        }
    }

    package struct Size: Sendable, Equatable {
        package var width: Double
        package var height: Double
        package init(width: Double, height: Double) {
            self.width = width
            self.height = height
        }
    }

    /// A state's box: top-left corner and size.
    package struct Box: Sendable, Equatable {
        package var x: Double
        package var y: Double
        package var width: Double
        package var height: Double
        package var rank: Int
        package var midX: Double { x + width / 2 }
        package var midY: Double { y + height / 2 }
        package var maxX: Double { x + width }
        package var maxY: Double { y + height }
    }

    package struct Route: Sendable {
        package var edge: Edge
        /// From the source state to the target state (arrowhead at the last point). Consecutive points are
        /// joined by curves with vertical tangents; a self loop has its own four-point shape.
        package var points: [Point]
        /// Where the label text starts (left-aligned) and whether it is centred on that point instead.
        package var labelAt: Point?
        package var labelCentered: Bool
        /// Goes up the diagram: a loop back to an earlier state.
        package var isBack: Bool
        package var isSelfLoop: Bool
    }

    package var boxes: [String: Box]
    package var routes: [Route]
    package var width: Double
    package var height: Double

    package static let margin = 20.0
    /// Room above the first layer for the start marker.
    package static let topRoom = 22.0
    static let nodeGap = 28.0
    static let dummyGap = 10.0
    static let layerGap = 14.0
    static let labelHeight = 14.0
    static let selfLoopRoom = 34.0
    static let maxDummies = 3000

    /// - Parameters:
    ///   - sizes: each state's box size (states missing here get a default).
    ///   - labelWidths: room each edge's label needs beside its line (0 or absent: no label).
    package init(_ flow: CompiledFlow, sizes: [String: Size], labelWidths: [EdgeKey: Double]) {
        var builder = LayoutBuilder(flow: flow, sizes: sizes, labelWidths: labelWidths)
        builder.rankStates()
        builder.buildLayers()
        builder.orderLayers()
        builder.placeX()
        let placed = builder.finish()
        boxes = placed.boxes
        routes = placed.routes
        width = placed.width
        height = placed.height
    }
}

/// The mutable working state of one layout; `SVGLayout.init` runs its phases in order.
private struct LayoutBuilder {
    let flow: CompiledFlow
    let names: [String]
    let sizes: [SVGLayout.Size]
    /// Edges between known states, in file order, with whether each runs backwards.
    var edges: [(edge: Edge, from: Int, to: Int, back: Bool, labelWidth: Double)] = []
    var rank: [Int] = []

    /// Layout nodes: states first (id == state index), then dummies.
    struct Node {
        var state: Int?
        var chain: Int?
        var width: Double
        /// Where lines attach, from the left edge.
        var anchor: Double
        var height: Double
        var layer: Int
        var labelled = false
    }
    var nodes: [Node] = []
    var layers: [[Int]] = []
    var up: [[Int]] = []
    var down: [[Int]] = []
    /// Per edge: upper state, lower state, dummy ids from top to bottom.
    var chains: [(edge: Int, upper: Int, lower: Int, dummies: [Int])] = []
    var x: [Double] = []

    init(flow: CompiledFlow, sizes: [String: SVGLayout.Size], labelWidths: [EdgeKey: Double]) {
        self.flow = flow
        names = flow.states.map(\.name)
        self.sizes = names.map { sizes[$0] ?? SVGLayout.Size(width: 120, height: 40) }
        for (from, out) in flow.edges.enumerated() {
            for edge in out {
                guard let to = flow.target(of: from, edge: edge.index) else { continue }
                edges.append((edge, from, to, false, labelWidths[EdgeKey(edge)] ?? 0))
            }
        }
    }

    // MARK: 1. Ranks

    mutating func rankStates() {
        let n = names.count
        var adjacency = [[Int]](repeating: [], count: n)
        for (i, e) in edges.enumerated() where e.from != e.to { adjacency[e.from].append(i) }
        // Iterative depth-first walk (a 1,000-state chain must not exhaust the stack): start first, then any
        // state it cannot reach, in file order.
        var colour = [UInt8](repeating: 0, count: n) // 0 new, 1 on the stack, 2 done
        var roots = [Int]()
        if let start = flow.start { roots.append(start) }
        roots += Array(0..<n)
        for root in roots where colour[root] == 0 {
            var stack: [(node: Int, next: Int)] = [(root, 0)]
            colour[root] = 1
            while let top = stack.last {
                let out = adjacency[top.node]
                if top.next < out.count {
                    stack[stack.count - 1].next += 1
                    let e = out[top.next]
                    let target = edges[e].to
                    switch colour[target] {
                    case 0:
                        colour[target] = 1
                        stack.append((target, 0))
                    case 1: edges[e].back = true
                    default: break
                    }
                } else {
                    colour[top.node] = 2
                    stack.removeLast()
                }
            }
        }
        // Longest path over the acyclic version (back edges turned around), in Kahn order.
        var successors = [[Int]](repeating: [], count: n)
        var indegree = [Int](repeating: 0, count: n)
        for e in edges where e.from != e.to {
            let (u, v) = e.back ? (e.to, e.from) : (e.from, e.to)
            successors[u].append(v)
            indegree[v] += 1
        }
        rank = [Int](repeating: 0, count: n)
        var queue = (0..<n).filter { indegree[$0] == 0 }
        var head = 0
        while head < queue.count {
            let u = queue[head]
            head += 1
            for v in successors[u] {
                rank[v] = max(rank[v], rank[u] + 1)
                indegree[v] -= 1
                if indegree[v] == 0 { queue.append(v) }
            }
        }
    }

    // MARK: 2. Layers and dummies

    mutating func buildLayers() {
        let layerCount = (rank.max() ?? 0) * 2 + 1
        layers = Array(repeating: [], count: layerCount)
        // A self loop is drawn to the right of its state: keep room for it and its label.
        var loopRoom = [Double](repeating: 0, count: names.count)
        for e in edges where e.from == e.to {
            loopRoom[e.from] = max(loopRoom[e.from], SVGLayout.selfLoopRoom + e.labelWidth)
        }
        for i in names.indices {
            let width = sizes[i].width + loopRoom[i]
            nodes.append(
                Node(state: i, width: width, anchor: sizes[i].width / 2, height: sizes[i].height, layer: rank[i] * 2))
        }
        // States enter their layer in depth-first discovery order, which already follows the flow.
        for i in discoveryOrder() { layers[rank[i] * 2].append(i) }

        // Short edges get their dummies first, so a budget cut only straightens the longest ones.
        let candidates = edges.indices.filter { edges[$0].from != edges[$0].to }
        let bySpan = candidates.sorted { a, b in
            let sa = abs(rank[edges[a].from] - rank[edges[a].to]), sb = abs(rank[edges[b].from] - rank[edges[b].to])
            return sa != sb ? sa < sb : a < b
        }
        var budget = SVGLayout.maxDummies
        var dummiesOf: [Int: [Int]] = [:]
        var chainOrder: [Int] = []
        for e in bySpan {
            let edge = edges[e]
            let (upper, lower) = edge.back ? (edge.to, edge.from) : (edge.from, edge.to)
            let top = rank[upper] * 2, bottom = rank[lower] * 2
            let needed = bottom - top - 1
            guard needed <= budget else { continue }
            budget -= needed
            // The label sits next to the edge's source: below it for a forward edge, above it for a back edge.
            let labelLayer = edge.back ? bottom - 1 : top + 1
            var ids: [Int] = []
            for layer in (top + 1)..<bottom {
                let labelled = layer == labelLayer && edge.labelWidth > 0
                let width = labelled ? edge.labelWidth + 8 : 2
                let height = labelled || layer % 2 == 1 ? SVGLayout.labelHeight : 0
                nodes.append(Node(chain: e, width: width, anchor: 1, height: height, layer: layer, labelled: labelled))
                ids.append(nodes.count - 1)
                layers[layer].append(nodes.count - 1)
            }
            dummiesOf[e] = ids
            chainOrder.append(e)
        }
        up = Array(repeating: [], count: nodes.count)
        down = Array(repeating: [], count: nodes.count)
        for e in candidates {
            let edge = edges[e]
            let (upper, lower) = edge.back ? (edge.to, edge.from) : (edge.from, edge.to)
            let dummies = dummiesOf[e] ?? []
            chains.append((e, upper, lower, dummies))
            // Straight (budget-cut) edges are not layer-to-layer segments, so they do not steer the ordering.
            guard dummiesOf[e] != nil else { continue }
            let path = [upper] + dummies + [lower]
            for k in 0..<(path.count - 1) {
                down[path[k]].append(path[k + 1])
                up[path[k + 1]].append(path[k])
            }
        }
    }

    private func discoveryOrder() -> [Int] {
        var seen = [Bool](repeating: false, count: names.count)
        var order: [Int] = []
        var adjacency = [[Int]](repeating: [], count: names.count)
        for e in edges { adjacency[e.from].append(e.to) }
        var roots = [Int]()
        if let start = flow.start { roots.append(start) }
        roots += Array(names.indices)
        for root in roots where !seen[root] {
            var stack = [root]
            while let node = stack.popLast() {
                guard !seen[node] else { continue }
                seen[node] = true
                order.append(node)
                for next in adjacency[node].reversed() where !seen[next] { stack.append(next) }
            }
        }
        return order
    }

    // MARK: 3. Order within layers

    mutating func orderLayers() {
        var position = [Int](repeating: 0, count: nodes.count)
        func renumber(_ layer: [Int]) { for (i, id) in layer.enumerated() { position[id] = i } }
        layers.forEach(renumber)
        let segmentCount = down.reduce(0) { $0 + $1.count }
        let countCrossings = segmentCount <= 4000
        var best = layers
        var bestCrossings = countCrossings ? crossings(position) : 0
        for sweep in 0..<6 {
            let downward = sweep % 2 == 0
            let order = downward ? Array(layers.indices.dropFirst()) : Array(layers.indices.dropLast().reversed())
            for l in order {
                let keyed = layers[l].map { id -> (id: Int, key: Double) in
                    let neighbours = downward ? up[id] : down[id]
                    guard !neighbours.isEmpty else { return (id, Double(position[id])) }
                    return (id, Double(neighbours.reduce(0) { $0 + position[$1] }) / Double(neighbours.count))
                }
                layers[l] = keyed.enumerated().sorted { a, b in
                    a.element.key != b.element.key ? a.element.key < b.element.key : a.offset < b.offset
                }.map(\.element.id)
                renumber(layers[l])
            }
            if countCrossings {
                let now = crossings(position)
                if now < bestCrossings {
                    bestCrossings = now
                    best = layers
                }
            }
        }
        if countCrossings { layers = best }
    }

    /// Segment crossings between consecutive layers: pairs of segments whose ends are in opposite order.
    private func crossings(_ position: [Int]) -> Int {
        var total = 0
        for layer in layers {
            var segments: [(Int, Int)] = []
            for id in layer { for next in down[id] { segments.append((position[id], position[next])) } }
            for i in segments.indices {
                for j in (i + 1)..<segments.count {
                    let (a, b) = (segments[i], segments[j])
                    if (a.0 < b.0 && a.1 > b.1) || (a.0 > b.0 && a.1 < b.1) { total += 1 }
                }
            }
        }
        return total
    }

    // MARK: 4. Horizontal placement

    private func gap(_ a: Int, _ b: Int) -> Double {
        nodes[a].state != nil && nodes[b].state != nil ? SVGLayout.nodeGap : SVGLayout.dummyGap
    }

    mutating func placeX() {
        x = [Double](repeating: 0, count: nodes.count)
        for layer in layers {
            var left = 0.0
            for (i, id) in layer.enumerated() {
                if i > 0 { left += gap(layer[i - 1], id) }
                x[id] = left
                left += nodes[id].width
            }
        }
        // Centre every layer on the widest one before pulling neighbours together.
        let widths = layers.map { layer in layer.last.map { x[$0] + nodes[$0].width } ?? 0 }
        let widest = widths.max() ?? 0
        for (l, layer) in layers.enumerated() { for id in layer { x[id] += (widest - widths[l]) / 2 } }

        for pass in 0..<8 {
            let downward = pass % 2 == 0
            let order = downward ? Array(layers.indices) : Array(layers.indices.reversed())
            for l in order { align(layer: l, useUp: downward || pass == 7, useDown: !downward || pass == 7) }
        }
        let minX = nodes.indices.map { x[$0] }.min() ?? 0
        for id in nodes.indices { x[id] += SVGLayout.margin - minX }
    }

    private func anchorX(_ id: Int) -> Double { x[id] + nodes[id].anchor }

    private mutating func align(layer l: Int, useUp: Bool, useDown: Bool) {
        let layer = layers[l]
        guard !layer.isEmpty else { return }
        var desired = layer.map { id -> Double in
            let neighbours = (useUp ? up[id] : []) + (useDown ? down[id] : [])
            guard !neighbours.isEmpty else { return x[id] }
            let mean = neighbours.reduce(0.0) { $0 + anchorX($1) } / Double(neighbours.count)
            return mean - nodes[id].anchor
        }
        // Left pass pushes right, right pass pushes left; their mean keeps the layer where it wants to be.
        var left = desired, right = desired
        for i in 1..<max(layer.count, 1) where i < layer.count {
            left[i] = max(desired[i], left[i - 1] + nodes[layer[i - 1]].width + gap(layer[i - 1], layer[i]))
        }
        for i in stride(from: layer.count - 2, through: 0, by: -1) {
            right[i] = min(desired[i], right[i + 1] - nodes[layer[i]].width - gap(layer[i], layer[i + 1]))
        }
        for i in layer.indices { desired[i] = (left[i] + right[i]) / 2 }
        for i in 1..<max(layer.count, 1) where i < layer.count {
            desired[i] = max(desired[i], desired[i - 1] + nodes[layer[i - 1]].width + gap(layer[i - 1], layer[i]))
        }
        for (i, id) in layer.enumerated() { x[id] = desired[i] }
    }

    // MARK: 5. Vertical placement, ports and routes

    func finish() -> (boxes: [String: SVGLayout.Box], routes: [SVGLayout.Route], width: Double, height: Double) {
        var layerTop = [Double](repeating: 0, count: layers.count)
        var layerHeight = [Double](repeating: 0, count: layers.count)
        var y = SVGLayout.margin + SVGLayout.topRoom
        for (l, layer) in layers.enumerated() {
            layerHeight[l] = layer.map { nodes[$0].height }.max() ?? 0
            if l % 2 == 1 { layerHeight[l] = max(layerHeight[l], SVGLayout.labelHeight) }
            layerTop[l] = y
            y += layerHeight[l] + SVGLayout.layerGap
        }
        var boxes: [String: SVGLayout.Box] = [:]
        var boxOf: [SVGLayout.Box] = []
        for i in names.indices {
            let l = nodes[i].layer
            let box = SVGLayout.Box(
                x: x[i], y: layerTop[l] + (layerHeight[l] - sizes[i].height) / 2,
                width: sizes[i].width, height: sizes[i].height, rank: rank[i])
            boxOf.append(box)
            if boxes[names[i]] == nil { boxes[names[i]] = box }
        }

        // Ports: lines leave a box's bottom and enter its top spread out in the order of where they go, so
        // two edges between the same states never draw on top of each other.
        func firstStep(_ c: Int) -> Double { chains[c].dummies.first.map(anchorX) ?? boxOf[chains[c].lower].midX }
        func lastStep(_ c: Int) -> Double { chains[c].dummies.last.map(anchorX) ?? boxOf[chains[c].upper].midX }
        var bottomPorts = [[Int]](repeating: [], count: names.count)
        var topPorts = [[Int]](repeating: [], count: names.count)
        for c in chains.indices {
            bottomPorts[chains[c].upper].append(c)
            topPorts[chains[c].lower].append(c)
        }
        var bottomX = [Double](repeating: 0, count: chains.count)
        var topX = [Double](repeating: 0, count: chains.count)
        for i in names.indices {
            let box = boxOf[i]
            let outs = bottomPorts[i].sorted { (firstStep($0), $0) < (firstStep($1), $1) }
            for (k, c) in outs.enumerated() { bottomX[c] = box.x + box.width * Double(k + 1) / Double(outs.count + 1) }
            let ins = topPorts[i].sorted { (lastStep($0), $0) < (lastStep($1), $1) }
            for (k, c) in ins.enumerated() { topX[c] = box.x + box.width * Double(k + 1) / Double(ins.count + 1) }
        }

        var routes: [SVGLayout.Route] = []
        var routeOfEdge: [Int: SVGLayout.Route] = [:]
        for (c, chain) in chains.enumerated() {
            let edge = edges[chain.edge]
            let upperBox = boxOf[chain.upper], lowerBox = boxOf[chain.lower]
            var points = [SVGLayout.Point(bottomX[c], upperBox.maxY)]
            var labelAt: SVGLayout.Point?
            for d in chain.dummies {
                let l = nodes[d].layer
                let ax = anchorX(d)
                points.append(.init(ax, layerTop[l]))
                points.append(.init(ax, layerTop[l] + layerHeight[l]))
                if nodes[d].labelled { labelAt = .init(ax + 6, layerTop[l] + layerHeight[l] / 2 + 4) }
            }
            points.append(.init(topX[c], lowerBox.y))
            var centered = false
            if labelAt == nil, edge.labelWidth > 0 {
                labelAt = .init(
                    (points[0].x + points[points.count - 1].x) / 2, (points[0].y + points[points.count - 1].y) / 2)
                centered = true
            }
            if edge.back { points.reverse() }
            routeOfEdge[chain.edge] = .init(
                edge: edge.edge, points: points, labelAt: labelAt, labelCentered: centered,
                isBack: edge.back, isSelfLoop: false)
        }
        for (e, edge) in edges.enumerated() where edge.from == edge.to {
            let box = boxOf[edge.from]
            let right = box.maxX, mid = box.midY
            let loop = SVGLayout.selfLoopRoom - 6
            let points = [
                SVGLayout.Point(right, mid - 8), .init(right + loop, mid - 18), .init(right + loop, mid + 18),
                .init(right, mid + 8),
            ]
            let label = edge.labelWidth > 0 ? SVGLayout.Point(right + loop + 4, mid + 4) : nil
            routeOfEdge[e] = .init(
                edge: edge.edge, points: points, labelAt: label, labelCentered: false, isBack: true, isSelfLoop: true)
        }
        // Routes in file order of their edges, so output is stable and readable.
        for e in edges.indices { if let route = routeOfEdge[e] { routes.append(route) } }

        let right = nodes.indices.map { x[$0] + nodes[$0].width }.max() ?? 0
        let width = right + SVGLayout.margin
        let height = max(y - SVGLayout.layerGap + SVGLayout.margin, SVGLayout.margin * 2 + SVGLayout.topRoom)
        return (boxes, routes, max(width, 160), height)
    }
}
