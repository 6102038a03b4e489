import Foundation

/// Precision / recall / F1 of detected times against truth with a tolerance (one-to-one matching,
/// closest pairs first). Used by the test suite, `swingbench contacts --suite` and
/// ``ContactModel`` training (which picks its threshold by it).
package struct ContactScore: Sendable, Equatable, Codable {
    /// Detections matched to a truth time, detections matched to none, truth times matched by none.
    package var truePositives: Int, falsePositives: Int, falseNegatives: Int
    /// Absolute timing errors of the matched pairs, s.
    package var errors: [Double]

    /// Share of the detections that matched (1 when nothing was detected).
    package var precision: Double { truePositives + falsePositives == 0 ? 1 : Double(truePositives) / Double(truePositives + falsePositives) }
    /// Share of the truth times matched (1 when there were none).
    package var recall: Double { truePositives + falseNegatives == 0 ? 1 : Double(truePositives) / Double(truePositives + falseNegatives) }
    /// Harmonic mean of precision and recall.
    package var f1: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }
    /// Largest matched timing error, s (0 when nothing matched).
    package var maxError: Double { errors.max() ?? 0 }

    /// A score from its counts (for matching rules other than ±tolerance, e.g. a hit's transient span).
    package init(truePositives: Int, falsePositives: Int, falseNegatives: Int, errors: [Double]) {
        self.truePositives = truePositives; self.falsePositives = falsePositives
        self.falseNegatives = falseNegatives; self.errors = errors
    }

    /// Scores `detected` against `truth`.
    /// - Parameters:
    ///   - detected: detected times, s.
    ///   - truth: true times, s.
    ///   - tolerance: a detection within ±tolerance of a truth time matches it (each at most once).
    package init(detected: [Double], truth: [Double], tolerance: Double) {
        var pairs: [(Double, Int, Int)] = []
        for (i, d) in detected.enumerated() {
            for (j, t) in truth.enumerated() where abs(d - t) <= tolerance { pairs.append((abs(d - t), i, j)) }
        }
        pairs.sort { $0.0 < $1.0 }
        var usedD = Set<Int>(), usedT = Set<Int>()
        var errs: [Double] = []
        for (e, i, j) in pairs where !usedD.contains(i) && !usedT.contains(j) {
            usedD.insert(i); usedT.insert(j); errs.append(e)
        }
        truePositives = errs.count
        falsePositives = detected.count - errs.count
        falseNegatives = truth.count - errs.count
        errors = errs
    }

    /// Nothing detected and nothing to detect (the start of a sum).
    package static let zero = ContactScore(truePositives: 0, falsePositives: 0, falseNegatives: 0, errors: [])

    /// Sums two scores (for per-condition totals over seeds).
    package static func + (l: ContactScore, r: ContactScore) -> ContactScore {
        var s = l
        s.truePositives += r.truePositives; s.falsePositives += r.falsePositives
        s.falseNegatives += r.falseNegatives; s.errors += r.errors
        return s
    }
}
