import Foundation

/// Gradient-boosted decision trees answering one yes/no question (logistic loss), grown leaf by leaf on
/// binned features with balanced class weights: the recipe of scikit-learn's
/// `HistGradientBoostingClassifier(class_weight="balanced")`, which `bench/contact_model.sh` runs beside it.
/// Deterministic: the same rows give the same trees.
package struct BoostedTrees: Sendable, Codable, Equatable {
    /// One tree, as parallel arrays. Node 0 is the root; a node whose `feature` is −1 is a leaf adding
    /// `value`; any other sends a row to `left` when its feature is ≤ `threshold`, else to `right`.
    package struct Tree: Sendable, Codable, Equatable {
        /// Feature tested per node (−1 for a leaf).
        package var feature: [Int]
        /// Split value per node.
        package var threshold: [Float]
        /// Child for rows at or below the threshold.
        package var left: [Int]
        /// Child for rows above it.
        package var right: [Int]
        /// Leaf contribution to the log-odds (0 for a split).
        package var value: [Float]

        /// Log-odds this tree adds for `x`.
        func value(for x: [Float]) -> Double {
            var k = 0
            while feature[k] >= 0 { k = x[feature[k]] <= threshold[k] ? left[k] : right[k] }
            return Double(value[k])
        }

        /// Whether every child index is in range and every path ends at a leaf (a saved model is checked).
        var isWellFormed: Bool {
            let n = feature.count
            guard n > 0, [threshold.count, left.count, right.count, value.count].allSatisfy({ $0 == n }) else { return false }
            // Children always come after their parent, so no path loops.
            return (0..<n).allSatisfy { k in feature[k] < 0 || (left[k] > k && left[k] < n && right[k] > k && right[k] < n) }
        }
    }

    /// How the trees grow.
    package struct Options: Sendable, Equatable {
        /// Trees.
        package var iterations = 300
        /// Shrinkage of each tree's leaves.
        package var learningRate = 0.05
        /// Leaves per tree.
        package var maxLeaves = 31
        /// Rows per leaf, at least.
        package var minRowsPerLeaf = 20
        /// L2 penalty on leaf values.
        package var l2 = 1.0
        /// Bins per feature, at most.
        package var bins = 255
        /// Defaults (scikit-learn's, with the bench's 300 trees at 0.05 and an L2 of 1).
        package init() {}
    }

    /// Log-odds before any tree.
    package var bias: Double
    /// The trees, in the order they were grown.
    package var trees: [Tree]
    /// Numbers per row.
    package var featureCount: Int

    /// Probability of "yes" for one row of ``featureCount`` numbers.
    package func probability(_ x: [Float]) -> Double {
        var margin = bias
        for t in trees { margin += t.value(for: x) }
        return 1 / (1 + exp(-margin))
    }

    /// Whether the trees can be evaluated on rows of ``featureCount`` numbers.
    var isWellFormed: Bool {
        bias.isFinite && trees.allSatisfy { t in
            t.isWellFormed && t.feature.allSatisfy { $0 < featureCount } && t.threshold.allSatisfy { !$0.isNaN }
                && t.value.allSatisfy(\.isFinite)
        }
    }

    /// Grows trees on `rows` (each ``featureCount`` long) labelled `labels`; needs both answers among the labels.
    package static func train(rows: [[Float]], labels: [Bool], options: Options = Options()) -> BoostedTrees {
        let n = rows.count, d = rows.first?.count ?? 0
        let positives = labels.filter { $0 }.count
        guard positives > 0, positives < n else {
            return BoostedTrees(bias: positives > 0 ? 20 : -20, trees: [], featureCount: d)
        }
        // Balanced weights: each answer carries half the total.
        let wYes = Double(n) / (2 * Double(positives)), wNo = Double(n) / (2 * Double(n - positives))
        let weight = labels.map { $0 ? wYes : wNo }
        let y = labels.map { $0 ? 1.0 : 0.0 }
        let bias = log(Double(positives) * wYes / (Double(n - positives) * wNo))

        // Bin edges per feature; bin(x) = the first edge ≥ x, so "bin ≤ j" is "x ≤ edges[j]".
        let edges = (0..<d).map { f in binEdges(rows.map { $0[f] }, bins: min(max(2, options.bins), 256)) }
        let binned: [[UInt8]] = (0..<d).map { f in
            rows.map { row in UInt8(firstEdge(atLeast: row[f], in: edges[f])) }
        }

        var margin = [Double](repeating: bias, count: n)
        var trees: [Tree] = []
        var g = [Double](repeating: 0, count: n), h = g
        for _ in 0..<options.iterations {
            for i in 0..<n {
                let p = 1 / (1 + exp(-margin[i]))
                g[i] = weight[i] * (p - y[i])
                h[i] = max(weight[i] * p * (1 - p), 1e-16)
            }
            let grower = Grower(binned: binned, edges: edges, g: g, h: h, options: options)
            let (tree, leafOf) = grower.grow(rows: Array(0..<n))
            for i in 0..<n { margin[i] += Double(tree.value[leafOf[i]]) }
            trees.append(tree)
        }
        return BoostedTrees(bias: bias, trees: trees, featureCount: d)
    }

    /// Up to `bins − 1` split points: midpoints between distinct values, or between quantiles when there
    /// are more distinct values than bins.
    static func binEdges(_ values: [Float], bins: Int) -> [Float] {
        let sorted = values.sorted()
        var distinct: [Float] = []
        for v in sorted where distinct.last != v { distinct.append(v) }
        guard distinct.count > 1 else { return [] }
        if distinct.count <= bins {
            return (0..<(distinct.count - 1)).map { (distinct[$0] + distinct[$0 + 1]) / 2 }
        }
        var edges: [Float] = []
        for q in 1..<bins {
            let k = q * sorted.count / bins
            let e = (sorted[max(0, k - 1)] + sorted[k]) / 2
            if edges.last.map({ e > $0 }) ?? true { edges.append(e) }
        }
        return edges
    }

    static func firstEdge(atLeast x: Float, in edges: [Float]) -> Int {
        var lo = 0, hi = edges.count
        while lo < hi { let mid = (lo + hi) / 2; if edges[mid] < x { lo = mid + 1 } else { hi = mid } }
        return lo
    }

    /// Grows one tree best-first: the leaf whose split gains most splits next.
    private struct Grower {
        let binned: [[UInt8]], edges: [[Float]], g: [Double], h: [Double], options: Options

        struct Split { var gain: Double; var feature: Int; var bin: Int }
        struct Leaf { var node: Int; var rows: [Int]; var split: Split? }

        func grow(rows: [Int]) -> (Tree, leafOf: [Int]) {
            var tree = Tree(feature: [-1], threshold: [0], left: [0], right: [0], value: [0])
            var open = [Leaf(node: 0, rows: rows, split: best(rows))]
            while open.count < options.maxLeaves {
                // The open leaf with the largest gain (ties: the earliest node).
                guard let k = open.indices.filter({ open[$0].split != nil })
                        .max(by: { (open[$0].split?.gain ?? 0, -open[$0].node) < (open[$1].split?.gain ?? 0, -open[$1].node) }),
                      let split = open[k].split else { break }
                let leaf = open.remove(at: k)
                let column = binned[split.feature]
                let goLeft = leaf.rows.filter { Int(column[$0]) <= split.bin }
                let goRight = leaf.rows.filter { Int(column[$0]) > split.bin }
                let l = tree.feature.count, r = l + 1
                tree.feature[leaf.node] = split.feature
                tree.threshold[leaf.node] = edges[split.feature][split.bin]
                tree.left[leaf.node] = l
                tree.right[leaf.node] = r
                for _ in 0..<2 {
                    tree.feature.append(-1); tree.threshold.append(0); tree.left.append(0); tree.right.append(0); tree.value.append(0)
                }
                open.append(Leaf(node: l, rows: goLeft, split: best(goLeft)))
                open.append(Leaf(node: r, rows: goRight, split: best(goRight)))
            }
            var leafOf = [Int](repeating: 0, count: g.count)
            for leaf in open {
                var sg = 0.0, sh = 0.0
                for i in leaf.rows { sg += g[i]; sh += h[i] }
                tree.value[leaf.node] = Float(-sg / (sh + options.l2) * options.learningRate)
                for i in leaf.rows { leafOf[i] = leaf.node }
            }
            return (tree, leafOf)
        }

        /// The best split of `rows`, or nil when none gains or keeps ``Options/minRowsPerLeaf`` rows on each side.
        func best(_ rows: [Int]) -> Split? {
            guard rows.count >= 2 * options.minRowsPerLeaf else { return nil }
            var sg = 0.0, sh = 0.0
            for i in rows { sg += g[i]; sh += h[i] }
            let parent = sg * sg / (sh + options.l2)
            var best: Split?
            for f in binned.indices where !edges[f].isEmpty {
                let bins = edges[f].count + 1
                var hg = [Double](repeating: 0, count: bins), hh = hg, hc = [Int](repeating: 0, count: bins)
                let column = binned[f]
                for i in rows { let b = Int(column[i]); hg[b] += g[i]; hh[b] += h[i]; hc[b] += 1 }
                var lg = 0.0, lh = 0.0, lc = 0
                for b in 0..<(bins - 1) {
                    lg += hg[b]; lh += hh[b]; lc += hc[b]
                    let rc = rows.count - lc
                    guard lc >= options.minRowsPerLeaf else { continue }
                    if rc < options.minRowsPerLeaf { break }
                    let rg = sg - lg, rh = sh - lh
                    let gain = lg * lg / (lh + options.l2) + rg * rg / (rh + options.l2) - parent
                    if gain > (best?.gain ?? 1e-12) { best = Split(gain: gain, feature: f, bin: b) }
                }
            }
            return best
        }
    }
}
