/// Minimum-cost bipartite matching with a cost limit — the problem Ultralytics' trackers hand to
/// `lap.lapjv(cost, extend_cost=True, cost_limit=limit)`.
///
/// Leaving a row or a column unmatched costs `limit / 2`, so a pair is worth matching only when its cost is
/// below `limit`, and among all such matchings the one with the least total cost wins (not the one with the
/// most pairs): `Σ matched (cost − limit)` is minimised. Pairs at or above the limit are never matched.
///
/// Solved as successive shortest augmenting paths (the Hungarian method with Dijkstra and potentials) over the
/// pairs below the limit only, each row also owning a private "unmatched" column of cost 0. Exact — the same
/// optimum as Jonker–Volgenant; when two matchings tie on total cost the one chosen may differ from `lapjv`'s.
enum LinearAssignment {
    /// One admissible pair: row, column and its cost.
    struct Edge: Sendable, Equatable {
        var row: Int
        var column: Int
        var cost: Double
    }

    /// A matching: pairs in ascending row order, then the rows and the columns left over (ascending).
    struct Result: Sendable, Equatable {
        var matches: [(row: Int, column: Int)]
        var unmatchedRows: [Int]
        var unmatchedColumns: [Int]

        static func == (a: Result, b: Result) -> Bool {
            a.matches.map(\.row) == b.matches.map(\.row) && a.matches.map(\.column) == b.matches.map(\.column)
                && a.unmatchedRows == b.unmatchedRows && a.unmatchedColumns == b.unmatchedColumns
        }
    }

    /// Solves a dense `rows × columns` cost matrix (row-major).
    /// - Complexity: O(R·C) to list the pairs below `limit`, then as ``solve(rows:columns:edges:limit:)``.
    static func solve(rows: Int, columns: Int, costs: [Double], limit: Double) -> Result {
        var edges: [Edge] = []
        for r in 0..<rows {
            for c in 0..<columns {
                let v = costs[r * columns + c]
                if v < limit { edges.append(Edge(row: r, column: c, cost: v)) }
            }
        }
        return solve(rows: rows, columns: columns, edges: edges, limit: limit)
    }

    /// Solves a sparse problem: only `edges` (pairs below `limit`; others and non-finite costs are ignored) may match.
    /// - Complexity: O(R · (E + R + C) · log(R + C)) in the worst case; far less when the pairs form small
    ///   clusters, as boxes of different objects do.
    static func solve(rows: Int, columns: Int, edges: [Edge], limit: Double) -> Result {
        guard rows > 0, columns > 0 else {
            return Result(matches: [], unmatchedRows: Array(0..<rows), unmatchedColumns: Array(0..<columns))
        }
        // Adjacency per row, with the cost as (cost − limit) < 0: a match is worth its saving over leaving both out.
        var adjacency = [[(column: Int, weight: Double)]](repeating: [], count: rows)
        for e in edges where e.cost.isFinite && e.cost < limit && e.row >= 0 && e.row < rows && e.column >= 0 && e.column < columns {
            adjacency[e.row].append((e.column, e.cost - limit))
        }
        // Columns 0..<columns are real; column columns + r is row r's private "unmatched" column, weight 0.
        let totalColumns = columns + rows
        var rowPotential = [Double](repeating: 0, count: rows)
        var columnPotential = [Double](repeating: 0, count: totalColumns)
        var columnOwner = [Int](repeating: -1, count: totalColumns)   // row matched to each column
        var rowColumn = [Int](repeating: -1, count: rows)             // column matched to each row
        // Feasible start: every reduced cost weight − u[row] − v[column] is ≥ 0.
        for r in 0..<rows { rowPotential[r] = adjacency[r].map(\.weight).min().map { min($0, 0) } ?? 0 }

        var distance = [Double](repeating: .infinity, count: totalColumns)
        var via = [Int](repeating: -1, count: totalColumns)            // row from which each column was reached
        var done = [Bool](repeating: false, count: totalColumns)
        var touched: [Int] = []
        var heap = MinHeap()

        for source in 0..<rows where rowColumn[source] < 0 {
            for c in touched { distance[c] = .infinity; via[c] = -1; done[c] = false }
            touched.removeAll(keepingCapacity: true)
            heap.removeAll()
            var treeRows: [(row: Int, distance: Double)] = [(source, 0)]
            var finished: [Int] = []
            func relax(from row: Int, at base: Double) {
                let visit = { (c: Int, weight: Double) in
                    guard !done[c] else { return }
                    let d = base + max(weight - rowPotential[row] - columnPotential[c], 0)
                    if d < distance[c] {
                        if distance[c] == .infinity { touched.append(c) }
                        distance[c] = d; via[c] = row; heap.push(d, c)
                    }
                }
                for (c, w) in adjacency[row] { visit(c, w) }
                visit(columns + row, 0)
            }
            relax(from: source, at: 0)
            var sink = -1, delta = 0.0
            while let (d, c) = heap.pop() {
                guard !done[c], d == distance[c] else { continue }
                done[c] = true
                finished.append(c)
                let owner = columnOwner[c]
                if owner < 0 { sink = c; delta = d; break }
                treeRows.append((owner, d))
                relax(from: owner, at: d)
            }
            guard sink >= 0 else { continue }   // unreachable: the private column is always free
            // Potentials: keep every reduced cost ≥ 0 and make the new path tight.
            for (r, d) in treeRows where d < delta { rowPotential[r] += delta - d }
            for c in finished where distance[c] < delta { columnPotential[c] -= delta - distance[c] }
            // Augment along the path back to the source.
            var c = sink
            while c >= 0 {
                let r = via[c]
                let previous = rowColumn[r]
                rowColumn[r] = c
                columnOwner[c] = r
                c = r == source ? -1 : previous
            }
        }

        var matches: [(row: Int, column: Int)] = []
        var matchedColumns = [Bool](repeating: false, count: columns)
        var unmatchedRows: [Int] = []
        for r in 0..<rows {
            let c = rowColumn[r]
            if c >= 0 && c < columns { matches.append((r, c)); matchedColumns[c] = true } else { unmatchedRows.append(r) }
        }
        let unmatchedColumns = (0..<columns).filter { !matchedColumns[$0] }
        return Result(matches: matches, unmatchedRows: unmatchedRows, unmatchedColumns: unmatchedColumns)
    }
}

/// A binary min-heap of (key, value) pairs for Dijkstra (stale entries are skipped by the caller).
private struct MinHeap {
    private var items: [(key: Double, value: Int)] = []

    mutating func removeAll() { items.removeAll(keepingCapacity: true) }

    mutating func push(_ key: Double, _ value: Int) {
        items.append((key, value))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i].key < items[parent].key else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> (Double, Int)? {
        guard let first = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < items.count && items[l].key < items[m].key { m = l }
                if r < items.count && items[r].key < items[m].key { m = r }
                if m == i { break }
                items.swapAt(i, m)
                i = m
            }
        }
        return (first.key, first.value)
    }
}
