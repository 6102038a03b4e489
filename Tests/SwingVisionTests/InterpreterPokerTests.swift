import Foundation
import SwingCore
import Testing
@testable import SwingVision

@Suite struct InterpreterPokerTests {
    let poker = PokerHandInterpreter()

    func hand(_ labels: String) -> PokerHandInterpreter.Result {
        poker.interpret(TestSupport.cards(labels.split(separator: " ").map(String.init)))
    }

    @Test func labelsParseInEveryCommonSpelling() {
        for (label, expected) in [("10H", "10H"), ("10h", "10H"), ("TH", "10H"), ("Th", "10H"), ("th", "10H"),
                                  ("AS", "AS"), ("as", "AS"), ("QD", "QD"), ("2C", "2C"), (" kc ", "KC"),
                                  ("J♠", "JS")] {
            #expect(PokerCard(label: label)?.description == expected, "\(label)")
        }
        for bad in ["", "1H", "11H", "AX", "10", "H", "ZZ", "100H", "A S", "person"] {
            #expect(PokerCard(label: bad) == nil, "\(bad)")
        }
    }

    @Test(arguments: [
        ("10H JH QH KH AH 2C 3D", "Royal flush", ["10H", "JH", "QH", "KH", "AH"]),
        ("9H 10H JH QH KH", "Straight flush", ["9H", "10H", "JH", "QH", "KH"]),
        ("AD 2D 3D 4D 5D KC", "Straight flush", ["AD", "2D", "3D", "4D", "5D"]),
        ("7C 7D 7H 7S 2D KH", "Four of a kind", ["7C", "7D", "7H", "7S", "KH"]),
        ("3C 3D 3H KS KH", "Full house", ["3C", "3D", "3H", "KH", "KS"]),
        ("2S 7S 9S JS KS", "Flush", ["2S", "7S", "9S", "JS", "KS"]),
        ("5C 6D 7H 8S 9C", "Straight", ["5C", "6D", "7H", "8S", "9C"]),
        ("AC 2D 3H 4S 5C", "Straight", ["AC", "2D", "3H", "4S", "5C"]),
        ("QC QD QH 2S 9C", "Three of a kind", ["2S", "9C", "QC", "QD", "QH"]),
        ("JC JD 4H 4S AC", "Two pair", ["4H", "4S", "JC", "JD", "AC"]),
        ("8C 8D 2H 5S KC", "Pair", ["2H", "5S", "8C", "8D", "KC"]),
        ("2C 5D 9H JS KC", "High card", ["2C", "5D", "9H", "JS", "KC"]),
    ])
    func everyCategory(labels: String, name: String, cards: [String]) {
        let r = hand(labels)
        #expect(r.hand == name)
        #expect(r.cards == cards)
        #expect(r.complete)
    }

    @Test func ranksOrderCategoriesAndKickers() throws {
        let ordered = [
            "2C 3D 4H 5S 7C",          // worst hand of all
            "2C 3D 4H 5S 8C",          // higher kicker
            "2C 2D 4H 5S 7C",
            "2C 2D 4H 5S 8C",          // same pair, better kicker
            "3C 3D 4H 5S 7C",
            "2C 2D 3H 3S 4C", "2C 2D 3H 3S 5C", "2C 2D 4H 4S 3C",
            "2C 2D 2H 3S 4C", "AC 2D 3H 4S 5C", "2C 3D 4H 5S 6C", "10C JD QH KS AC",
            "2C 3C 4C 5C 7C", "2C 3C 4C 5C 8C", "2C 2D 2H 3S 3C", "2C 2D 2H 4S 4C", "3C 3D 3H 2S 2C",
            "2C 2D 2H 2S 3C", "2C 2D 2H 2S 4C", "AH 2H 3H 4H 5H", "2H 3H 4H 5H 6H", "10S JS QS KS AS",
        ].map(hand)
        for (a, b) in zip(ordered, ordered.dropFirst()) {
            let ra = try #require(a.rank), rb = try #require(b.rank)
            #expect(ra < rb, "\(a.cards) should rank below \(b.cards)")
            #expect(a.rankKey.lexicographicallyPrecedes(b.rankKey))
        }
        #expect(ordered.first?.rank == 1)
        #expect(ordered.first?.evaluatorRank == 7462)
        #expect(ordered.last?.rank == 7462)
        #expect(ordered.last?.evaluatorRank == 1)
    }

    @Test func tiesAreEqualAcrossSuits() {
        let a = hand("KC KD 9H 5S 3C"), b = hand("KH KS 9C 5D 3H")
        #expect(a.rank == b.rank)
        #expect(a.rankKey == b.rankKey)
        // Kicker decides: third kicker 3 vs 4.
        #expect((hand("KC KD 9H 5S 4C").rank ?? 0) > (a.rank ?? 0))
        // Two pair: the kicker breaks the tie.
        #expect((hand("QC QD 7H 7S AC").rank ?? 0) > (hand("QH QS 7C 7D KC").rank ?? 0))
    }

    @Test func sevenCardsGiveTheBestFive() {
        // Flush beats the straight also present; the best five clubs are chosen.
        let r = hand("4C 5D 6C 7C 8H 2C KC")
        #expect(r.hand == "Flush")
        #expect(r.cards == ["2C", "4C", "6C", "7C", "KC"])
        // Two trips make a full house with the higher trips on top.
        let fh = hand("9C 9D 9H 4C 4D 4H AS")
        #expect(fh.hand == "Full house")
        #expect(fh.rankKey == [PokerHandCategory.fullHouse.rawValue, 9, 4])
        // Three pairs: the best two plus the best remaining kicker (from the third pair).
        let tp = hand("9C 9D 6H 6S 5C 5D 2H")
        #expect(tp.rankKey == [PokerHandCategory.twoPair.rawValue, 9, 6, 5])
        // A six-card straight uses its top five.
        #expect(hand("3C 4D 5H 6S 7C 8D").cards == ["4D", "5H", "6S", "7C", "8D"])
        // Straight flush beats quads in the same seven cards.
        #expect(hand("5H 6H 7H 8H 9H 9C 9D 9S").hand == "Straight flush")
    }

    @Test func duplicateCornersCountOnce() {
        let r = hand("AS AS as 10H TH KD QC JC")
        #expect(r.duplicates == 3)
        #expect(r.distinctCards == ["10H", "JC", "QC", "KD", "AS"])
        #expect(r.hand == "Straight")
    }

    @Test func fewerThanFiveCardsGiveAPartialHand() {
        let pair = hand("KH KS 4D")
        #expect(pair.hand == "Pair")
        #expect(pair.complete == false)
        #expect(pair.rank == nil)
        #expect(pair.description == "Pair of kings")
        #expect(pair.rankKey == [PokerHandCategory.pair.rawValue, 13, 4])
        #expect(hand("2C 2D 2H 2S").hand == "Four of a kind")
        #expect(hand("2C 3C 4C 5C").hand == "High card")   // no flush or straight with four cards
        let none = poker.interpret(TestSupport.cards([]))
        #expect(none.hand == "No cards")
        #expect(none.cards.isEmpty)
    }

    @Test func invalidLabelsAreReportedNotFatal() {
        let r = hand("AS KS person 1X QS JS 10S")
        #expect(r.hand == "Royal flush")
        #expect(r.invalidLabels == ["person", "1X"])
    }

    @Test func lowConfidenceCardsAreIgnored() {
        var frame = TestSupport.cards(["AS", "KS", "QS", "JS", "10S"])
        frame.detections[0].confidence = 0.25    // not above the 0.25 threshold
        let r = poker.interpret(frame)
        #expect(r.distinctCards == ["10S", "JS", "QS", "KS"])
        #expect(r.complete == false)
        #expect(r.hand == "High card")
    }

    @Test func rankTableHasEveryDistinctHandClass() {
        #expect(PokerRankTable.keysDescending.count == 7462)
    }

    /// Held-out style check against the `treys` evaluator (fixture from tools/poker_reference.py).
    @Test func agreesWithTreysOnRandomHands() throws {
        struct Ref: Decodable { var labels: [String]; var treysRank: Int; var treysClass: String }
        struct Doc: Decodable { var hands: [Ref] }
        let data = try Data(contentsOf: TestSupport.fixtures.appendingPathComponent("poker_reference.json"))
        let doc = try JSONDecoder().decode(Doc.self, from: data)
        #expect(doc.hands.count == 1500)
        var mismatches = 0
        for h in doc.hands {
            let r = poker.interpret(TestSupport.cards(h.labels))
            if r.evaluatorRank != h.treysRank { mismatches += 1 }
            #expect(r.hand.lowercased() == h.treysClass.lowercased()
                    || (h.treysClass == "Straight Flush" && r.hand == "Royal flush"))
        }
        #expect(mismatches == 0)
    }

    @Test func videoSummaryKeepsTheStrongestHand() {
        let frames = [TestSupport.cards(["2C", "2D", "5H", "9S", "JC"]),
                      TestSupport.cards(["AS", "AD", "AC", "KH", "KD"]),
                      TestSupport.cards(["3C", "3D", "5H", "9S", "JC"])].enumerated().map { i, f in
            var f = f; f.frameIndex = i * 3; return f
        }
        let v = poker.interpretVideo(frames)
        #expect(v.hand == "Full house")
        #expect(v.frame == 3)
        #expect(v.frames.count == 3)
    }

    /// The video summary is written as the strongest hand's own fields beside `frame` and `frames` (the shape
    /// `interpret --video` and the studio print); with no card seen, "No cards" and no rank or frame.
    @Test func videoSummaryIsTheStrongestHandsFieldsThenItsFrames() throws {
        let frames = [TestSupport.cards(["2C", "2D", "5H", "9S", "JC"]), TestSupport.cards(["AS", "AD", "AC", "KH", "KD"])]
            .enumerated().map { i, f in var f = f; f.frameIndex = i; return f }
        func object(_ value: some Encodable) throws -> [String: JSONValue] {
            guard case .object(let o) = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value)) else { return [:] }
            return o
        }
        let video = try object(poker.interpretVideo(frames))
        let best = try object(poker.interpret(frames[1]))
        let handKeys: Set = ["hand", "rank", "evaluatorRank", "rankKey", "cards", "description", "complete"]
        #expect(Set(video.keys) == handKeys.union(["frame", "frames"]), "\(video.keys.sorted())")
        #expect(video.filter { handKeys.contains($0.key) } == best.filter { handKeys.contains($0.key) })
        #expect(video["frame"] == .number(1))
        if case .array(let entries) = video["frames"] { #expect(entries.count == 2) } else { Issue.record("no frames array") }
        let empty = try object(poker.interpretVideo([]))
        #expect(empty == ["hand": .string("No cards"), "rankKey": .array([]), "cards": .array([]),
                          "description": .string("No cards"), "complete": .bool(false), "frames": .array([])], "\(empty)")
    }
}
