import SwingCore

/// Reads playing-card detections (labels like `10H`, `AS`, `Th`) and reports the best poker hand.
///
/// Cards detected twice (both corner indices of one card) count once. With 5–7 (or more) distinct
/// cards the result is the best five-card hand; with fewer, the best partial hand.
package struct PokerHandInterpreter: DetectionInterpreter {
    /// Options (all keys optional in JSON).
    package struct Configuration: Sendable, Codable, Equatable {
        /// Detections at or below this confidence are ignored. Default 0.25 (the detector's own default).
        package var minimumConfidence: Double
        package init(minimumConfidence: Double = 0.25) { self.minimumConfidence = minimumConfidence }
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            minimumConfidence = try c.decodeIfPresent(Double.self, forKey: .minimumConfidence) ?? 0.25
        }
    }

    /// One frame's hand.
    package struct Result: Sendable, Encodable, Equatable {
        /// "Royal flush", "Straight flush", … "High card"; "No cards" when nothing was recognised.
        package var hand: String
        /// Strength on the 1…7462 scale, **higher is better** (7462 = royal flush); `nil` for a partial hand.
        package var rank: Int?
        /// The same strength in the numbering of Cactus Kev / `treys` / `phevaluator`
        /// (1 = royal flush … 7462 = worst), i.e. `7463 − rank`; `nil` for a partial hand.
        package var evaluatorRank: Int?
        /// `[category, tiebreak…]`, comparable lexicographically; also defined for partial hands.
        package var rankKey: [Int]
        /// The cards making the hand (canonical labels), ascending; the wheel lists its ace first.
        package var cards: [String]
        /// E.g. "Full house, kings over threes".
        package var description: String
        /// Whether five cards make the hand.
        package var complete: Bool
        /// Every distinct card recognised in the frame, ascending.
        package var distinctCards: [String]
        /// How many detections were repeats of an already-seen card.
        package var duplicates: Int
        /// Labels that are not cards (reported, never fatal).
        package var invalidLabels: [String]
    }

    /// Video summary: the strongest hand seen, and each frame's hand. Encoded as the strongest hand's fields
    /// (`hand` … `complete`, "No cards" when none was seen) beside `frame` and `frames`.
    package struct VideoResult: Sendable, Encodable {
        /// The strongest hand seen; `nil` when no frame showed a card.
        package var best: Result?
        /// The frame the strongest hand was seen in (first such frame on ties).
        package var frame: Int?
        package var frames: [InterpretedFrames<Result>.Entry]

        package var hand: String { best?.hand ?? "No cards" }
        package var rank: Int? { best?.rank }
        package var evaluatorRank: Int? { best?.evaluatorRank }
        package var rankKey: [Int] { best?.rankKey ?? [] }
        package var cards: [String] { best?.cards ?? [] }
        package var description: String { best?.description ?? "No cards" }
        package var complete: Bool { best?.complete ?? false }

        private enum CodingKeys: String, CodingKey {
            case hand, rank, evaluatorRank, rankKey, cards, description, complete, frame, frames
        }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(hand, forKey: .hand)
            try c.encodeIfPresent(rank, forKey: .rank)
            try c.encodeIfPresent(evaluatorRank, forKey: .evaluatorRank)
            try c.encode(rankKey, forKey: .rankKey)
            try c.encode(cards, forKey: .cards)
            try c.encode(description, forKey: .description)
            try c.encode(complete, forKey: .complete)
            try c.encodeIfPresent(frame, forKey: .frame)
            try c.encode(frames, forKey: .frames)
        }
    }

    package let name = "poker"
    package var configuration: Configuration

    package init(configuration: Configuration = .init()) { self.configuration = configuration }

    package func interpret(_ frame: InterpreterFrame) -> Result {
        // 52-bit set of cards seen, and a per-class memo of the parsed label (detectors repeat classes).
        var seenMask: UInt64 = 0
        var cards: [PokerCard] = []
        var memo: [(classId: Int, label: String, card: PokerCard?)] = []
        var duplicates = 0
        var invalid: [String] = []
        for d in frame.detections where d.confidence > configuration.minimumConfidence {
            let card: PokerCard?
            if let m = memo.first(where: { $0.classId == d.classId && $0.label == d.label }) {
                card = m.card
            } else {
                card = PokerCard(label: d.label)
                memo.append((d.classId, d.label, card))
                if card == nil, !invalid.contains(d.label) { invalid.append(d.label) }
            }
            guard let card else { continue }
            let bit: UInt64 = 1 << UInt64((card.rank - 2) * 4 + card.suit.rawValue)
            if seenMask & bit != 0 { duplicates += 1 } else { seenMask |= bit; cards.append(card) }
        }
        let best = PokerHandEvaluator.best(cards)
        let cls = PokerRankTable.equivalenceClass(of: best)
        return Result(
            hand: cards.isEmpty ? "No cards" : best.name,
            rank: cls.map { 7463 - $0 }, evaluatorRank: cls,
            rankKey: [best.category.rawValue] + best.tiebreak,
            cards: best.cards.map(\.description), description: best.description,
            complete: best.isComplete, distinctCards: cards.sorted().map(\.description),
            duplicates: duplicates, invalidLabels: invalid)
    }

    package func summarize(_ frames: [(frame: InterpreterFrame, result: Result)]) -> VideoResult {
        var best: (frame: Int, result: Result)?
        for f in frames {
            // Strictly stronger replaces, so ties keep the first frame.
            if let b = best, !b.result.rankKey.lexicographicallyPrecedes(f.result.rankKey) { continue }
            best = (f.frame.frameIndex, f.result)
        }
        return VideoResult(best: best?.result, frame: best?.frame,
                           frames: frames.map { .init(frame: $0.frame.frameIndex, time: $0.frame.time, result: $0.result) })
    }
}
