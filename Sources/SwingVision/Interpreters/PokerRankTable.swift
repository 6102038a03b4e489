/// The 7,462 distinct five-card hand classes, used to express a hand's strength as one integer
/// on the scale every established evaluator uses (Cactus Kev, `treys`, `deuces`, `phevaluator`):
/// class 1 is a royal flush, class 7462 is 7-5-4-3-2 unsuited.
///
/// The table is built once, lazily, by enumerating every five-card rank pattern (with and without a
/// flush) through ``PokerHandEvaluator`` itself, so it can never disagree with the evaluator's order.
enum PokerRankTable {
    /// Hand keys sorted strongest first.
    static let keysDescending: [Int] = {
        var keys = Set<Int>()
        var ranks = [Int](repeating: 0, count: 5)
        func visit(_ depth: Int, _ from: Int) {
            if depth == 5 {
                // Same rank at most four times.
                for r in 2...14 where ranks.filter({ $0 == r }).count > 4 { _ = r; return }
                // Suits cycle so equal ranks differ and five cards never share a suit.
                let offSuit = ranks.enumerated().compactMap { i, r in
                    PokerCard(rank: r, suit: PokerCard.Suit(rawValue: i % 4) ?? .clubs)
                }
                keys.insert(PokerHandEvaluator.best(offSuit).key)
                if Set(ranks).count == 5 {
                    let suited = ranks.compactMap { PokerCard(rank: $0, suit: .spades) }
                    keys.insert(PokerHandEvaluator.best(suited).key)
                }
                return
            }
            for r in from...14 { ranks[depth] = r; visit(depth + 1, r) }
        }
        visit(0, 2)
        return keys.sorted(by: >)
    }()

    private static let classByKey: [Int: Int] = {
        var d = [Int: Int](minimumCapacity: keysDescending.count)
        for (i, k) in keysDescending.enumerated() { d[k] = i + 1 }
        return d
    }()

    /// The equivalence class (1 = royal flush … 7462 = worst high card), or `nil` for a partial hand.
    static func equivalenceClass(of hand: PokerHand) -> Int? {
        hand.isComplete ? classByKey[hand.key] : nil
    }
}
