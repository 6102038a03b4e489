/// A playing card parsed from a detector label such as `10H`, `AS`, `qd`, `Th` or `2♣`.
package struct PokerCard: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Card suits. The raw value orders suits only to make output deterministic (suits never rank hands).
    package enum Suit: Int, Sendable, CaseIterable {
        case clubs = 0, diamonds, hearts, spades
        /// The one-letter label (`C`, `D`, `H`, `S`).
        package var letter: Character { ["C", "D", "H", "S"][rawValue] }
    }

    /// 2…14 (11 = jack, 12 = queen, 13 = king, 14 = ace).
    package let rank: Int
    package let suit: Suit

    /// Creates a card; `rank` must be in 2…14.
    package init?(rank: Int, suit: Suit) {
        guard (2...14).contains(rank) else { return nil }
        self.rank = rank; self.suit = suit
    }

    /// Parses a detector label, case-insensitively: a rank (`2`–`9`, `10` or `T`, `J`, `Q`, `K`, `A`)
    /// followed by a suit (`C`, `D`, `H`, `S` or the symbols ♣ ♦ ♥ ♠). Surrounding spaces are ignored.
    /// Returns `nil` for anything else (the caller reports the label as invalid).
    package init?(label: String) {
        // Fast path for ASCII labels (every common dataset): no allocation; this runs once per detection.
        var b: (UInt8, UInt8, UInt8) = (0, 0, 0)
        var n = 0
        var ended = false
        for byte in label.utf8 {
            if byte >= 0x80 { self.init(unicodeLabel: label); return }
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                if n > 0 { ended = true }
                continue
            }
            if ended || n == 3 { return nil }
            switch n { case 0: b.0 = byte; case 1: b.1 = byte; default: b.2 = byte }
            n += 1
        }
        guard n == 2 || n == 3, let suit = PokerCard.suit(ascii: n == 2 ? b.1 : b.2) else { return nil }
        let rank: Int?
        if n == 3 {
            rank = b.0 == UInt8(ascii: "1") && b.1 == UInt8(ascii: "0") ? 10 : nil
        } else {
            rank = PokerCard.rank(ascii: b.0)
        }
        guard let rank else { return nil }
        self.init(rank: rank, suit: suit)
    }

    private static func suit(ascii c: UInt8) -> Suit? {
        switch c | 0x20 {   // lower-case
        case UInt8(ascii: "c"): return .clubs
        case UInt8(ascii: "d"): return .diamonds
        case UInt8(ascii: "h"): return .hearts
        case UInt8(ascii: "s"): return .spades
        default: return nil
        }
    }

    private static func rank(ascii c: UInt8) -> Int? {
        switch c {
        case UInt8(ascii: "2")...UInt8(ascii: "9"): return Int(c) - 48
        default:
            switch c | 0x20 {
            case UInt8(ascii: "t"): return 10
            case UInt8(ascii: "j"): return 11
            case UInt8(ascii: "q"): return 12
            case UInt8(ascii: "k"): return 13
            case UInt8(ascii: "a"): return 14
            default: return nil
            }
        }
    }

    /// The general path (labels with suit symbols or other non-ASCII characters).
    private init?(unicodeLabel label: String) {
        var scalars = Array(label.unicodeScalars)
        while let f = scalars.first, f.properties.isWhitespace { scalars.removeFirst() }
        while let l = scalars.last, l.properties.isWhitespace { scalars.removeLast() }
        guard scalars.count == 2 || scalars.count == 3, let last = scalars.last else { return nil }
        let suit: Suit
        switch last {
        case "C", "c", "♣", "♧": suit = .clubs
        case "D", "d", "♦", "♢": suit = .diamonds
        case "H", "h", "♥", "♡": suit = .hearts
        case "S", "s", "♠", "♤": suit = .spades
        default: return nil
        }
        let rank: Int
        if scalars.count == 3 {
            guard scalars[0] == "1", scalars[1] == "0" else { return nil }
            rank = 10
        } else {
            switch scalars[0] {
            case "2"..."9": rank = Int(scalars[0].value) - 48
            case "T", "t": rank = 10
            case "J", "j": rank = 11
            case "Q", "q": rank = 12
            case "K", "k": rank = 13
            case "A", "a": rank = 14
            default: return nil
            }
        }
        self.rank = rank; self.suit = suit
    }

    /// The canonical label: rank as `2`–`10`, `J`, `Q`, `K`, `A`, then the suit letter (`10H`, `AS`).
    package var description: String { PokerCard.rankSymbol(rank) + String(suit.letter) }

    /// `2`–`10`, `J`, `Q`, `K`, `A`.
    static func rankSymbol(_ rank: Int) -> String {
        switch rank {
        case 11: return "J"
        case 12: return "Q"
        case 13: return "K"
        case 14: return "A"
        default: return String(rank)
        }
    }

    /// Plural rank name for descriptions ("kings", "sixes").
    static func rankName(_ rank: Int, plural: Bool) -> String {
        let names = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                     "jack", "queen", "king", "ace"]
        let n = names[min(max(rank, 2), 14) - 2]
        guard plural else { return n }
        return n == "six" ? "sixes" : n + "s"
    }

    /// Orders by rank, then suit (deterministic output only).
    package static func < (a: PokerCard, b: PokerCard) -> Bool {
        a.rank != b.rank ? a.rank < b.rank : a.suit.rawValue < b.suit.rawValue
    }
}
