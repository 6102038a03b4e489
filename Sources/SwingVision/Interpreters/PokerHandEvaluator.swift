/// Poker hand categories, weakest first (the raw value is the category's place in the order).
package enum PokerHandCategory: Int, Sendable, Comparable, CaseIterable, Encodable {
    case highCard = 0, pair, twoPair, threeOfAKind, straight, flush, fullHouse, fourOfAKind, straightFlush

    /// Display name; a straight flush to the ace is reported as "Royal flush" by ``PokerHand/name``.
    package var name: String {
        ["High card", "Pair", "Two pair", "Three of a kind", "Straight", "Flush", "Full house",
         "Four of a kind", "Straight flush"][rawValue]
    }

    package static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// The best hand found among a set of distinct cards.
package struct PokerHand: Sendable, Equatable, Comparable {
    /// The category (straight flush … high card).
    package let category: PokerHandCategory
    /// Tie-breaking ranks, most significant first (e.g. full house: trips rank, pair rank;
    /// straight: its high card, 5 for the wheel A-2-3-4-5). Fewer than five cards give fewer values.
    package let tiebreak: [Int]
    /// The cards that make the hand (five when at least five cards were given), ascending by rank,
    /// except that the wheel lists its ace first (A-2-3-4-5).
    package let cards: [PokerCard]

    /// A single integer that orders hands exactly like ``PokerHand/<``: category, then tie-breakers,
    /// 4 bits each.
    package var key: Int {
        var k = category.rawValue
        for i in 0..<5 { k = k << 4 | (i < tiebreak.count ? tiebreak[i] : 0) }
        return k
    }

    /// Whether the hand is made of five cards.
    package var isComplete: Bool { cards.count == 5 }

    /// "Royal flush" for an ace-high straight flush, otherwise the category name.
    package var name: String {
        category == .straightFlush && tiebreak.first == 14 ? "Royal flush" : category.name
    }

    /// A human description, e.g. "Full house, kings over threes" or "Pair of aces".
    package var description: String {
        let t = tiebreak
        func n(_ i: Int, _ plural: Bool) -> String { i < t.count ? PokerCard.rankName(t[i], plural: plural) : "?" }
        switch category {
        case .straightFlush: return name == "Royal flush" ? "Royal flush" : "Straight flush, \(n(0, false)) high"
        case .fourOfAKind: return "Four of a kind, \(n(0, true))"
        case .fullHouse: return "Full house, \(n(0, true)) over \(n(1, true))"
        case .flush: return "Flush, \(n(0, false)) high"
        case .straight: return "Straight, \(n(0, false)) high"
        case .threeOfAKind: return "Three of a kind, \(n(0, true))"
        case .twoPair: return "Two pair, \(n(0, true)) and \(n(1, true))"
        case .pair: return "Pair of \(n(0, true))"
        case .highCard: return t.isEmpty ? "No cards" : "High card, \(n(0, false))"
        }
    }

    package static func < (a: PokerHand, b: PokerHand) -> Bool { a.key < b.key }
    package static func == (a: PokerHand, b: PokerHand) -> Bool { a.key == b.key }
}

/// Finds the best five-card poker hand among any number of distinct cards, in O(n).
///
/// With fewer than five cards it returns the best partial hand (pairs, trips, quads and high cards
/// only — straights and flushes need five cards).
package enum PokerHandEvaluator {
    /// Evaluates the best hand. Duplicate cards are ignored.
    /// - Parameter cards: distinct cards (duplicates are removed first).
    package static func best(_ cards: [PokerCard]) -> PokerHand {
        let unique = Array(Set(cards)).sorted(by: >)
        // byRank[r] = cards of rank r, highest suit first (deterministic choice of cards).
        var byRank = [[PokerCard]](repeating: [], count: 15)
        var bySuit = [[PokerCard]](repeating: [], count: 4)
        for c in unique { byRank[c.rank].append(c); bySuit[c.suit.rawValue].append(c) }
        let complete = unique.count >= 5

        if complete {
            // Straight flush: the best straight within any one suit.
            var bestSF: (high: Int, cards: [PokerCard])?
            for suitCards in bySuit where suitCards.count >= 5 {
                var inSuit = [[PokerCard]](repeating: [], count: 15)
                for c in suitCards { inSuit[c.rank].append(c) }
                if let s = straight(inSuit), s.high > (bestSF?.high ?? 0) { bestSF = s }
            }
            if let sf = bestSF { return hand(.straightFlush, [sf.high], sf.cards, straight: true) }
        }
        let ranksDesc = (2...14).reversed().filter { !byRank[$0].isEmpty }
        let quads = ranksDesc.filter { byRank[$0].count == 4 }
        let trips = ranksDesc.filter { byRank[$0].count == 3 }
        let pairs = ranksDesc.filter { byRank[$0].count == 2 }
        let want = min(unique.count, 5)

        // Kickers: the highest cards whose rank is not in `used`.
        func kickers(_ used: Set<Int>, _ count: Int) -> [PokerCard] {
            guard count > 0 else { return [] }
            return Array(unique.filter { !used.contains($0.rank) }.prefix(count))
        }
        if let q = quads.first {
            let k = kickers([q], want - 4)
            return hand(.fourOfAKind, [q] + k.map(\.rank), byRank[q] + k)
        }
        if let t = trips.first, complete {
            // Pair part: the best other rank with at least two cards (a second trips counts).
            if let p = ranksDesc.first(where: { $0 != t && byRank[$0].count >= 2 }) {
                return hand(.fullHouse, [t, p], byRank[t] + byRank[p].prefix(2))
            }
        }
        if complete {
            if let flushSuit = bySuit.filter({ $0.count >= 5 }).max(by: { a, b in
                a.prefix(5).map(\.rank).lexicographicallyPrecedes(b.prefix(5).map(\.rank))
            }) {
                let five = Array(flushSuit.prefix(5))
                return hand(.flush, five.map(\.rank), five)
            }
            if let s = straight(byRank) { return hand(.straight, [s.high], s.cards, straight: true) }
        }
        if let t = trips.first {
            let k = kickers([t], want - 3)
            return hand(.threeOfAKind, [t] + k.map(\.rank), byRank[t] + k)
        }
        if pairs.count >= 2 {
            let (p1, p2) = (pairs[0], pairs[1])
            let k = kickers([p1, p2], want - 4)
            return hand(.twoPair, [p1, p2] + k.map(\.rank), byRank[p1] + byRank[p2] + k)
        }
        if let p = pairs.first {
            let k = kickers([p], want - 2)
            return hand(.pair, [p] + k.map(\.rank), byRank[p] + k)
        }
        let top = Array(unique.prefix(want))
        return hand(.highCard, top.map(\.rank), top)
    }

    /// The highest straight in a by-rank table (ace also plays low), with one card per rank.
    private static func straight(_ byRank: [[PokerCard]]) -> (high: Int, cards: [PokerCard])? {
        for high in stride(from: 14, through: 5, by: -1) {
            let ranks = (high - 4...high).map { $0 == 1 ? 14 : $0 }
            if ranks.allSatisfy({ !byRank[$0 == 1 ? 14 : $0].isEmpty }) {
                return (high, ranks.compactMap { byRank[$0].first })
            }
        }
        return nil
    }

    private static func hand(_ c: PokerHandCategory, _ tiebreak: [Int], _ cards: [PokerCard],
                             straight: Bool = false) -> PokerHand {
        var sorted = cards.sorted()
        // The wheel (A-2-3-4-5) lists its ace first, as it plays low.
        if straight, tiebreak.first == 5, let ace = sorted.last, ace.rank == 14 {
            sorted.removeLast(); sorted.insert(ace, at: 0)
        }
        return PokerHand(category: c, tiebreak: tiebreak, cards: sorted)
    }
}
