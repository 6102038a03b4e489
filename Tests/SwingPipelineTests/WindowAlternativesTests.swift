import SwingCore
import SwingPose
import SwingTestSupport
import Testing
@testable import SwingPipeline

/// Whom a window whose first person did not swing tries next (``WindowPoser/alternatives(to:among:)``).
@Suite struct WindowAlternativesTests {
    /// Over random people in random pictures: the person tried is never the first (nor a second view of their body),
    /// at least half their size, with their hips in the picture when the first person's are, and the biggest such;
    /// nobody when there is none.
    @Test(arguments: 0..<8)
    func theNextPersonTriedIsTheBiggestWhoCouldBeMeasured(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<50 {
            let (w, h) = [(1280, 720), (1920, 1080), (720, 1280)][Int.random(in: 0..<3, using: &rng)]
            func person() -> PersonCandidate {
                // Hips anywhere from a little above the picture to well below its bottom edge.
                PersonCandidate(score: 0.9, center: Point2(x: Double.random(in: 0...Double(w), using: &rng),
                                                            y: Double.random(in: -0.05...1.3, using: &rng) * Double(h)),
                                size: Double.random(in: 60...900, using: &rng), width: w, height: h)
            }
            let first = person()
            let people = [first] + (0..<Int.random(in: 0...5, using: &rng)).map { _ in person() }
            let tried = WindowPoser.alternatives(to: first, among: people)
            let eligible = people.filter {
                !$0.isSameBody(as: first) && $0.size >= WindowPoser.minAlternativeSize * first.size && ($0.hipsInFrame || !first.hipsInFrame)
            }
            #expect(tried.count == min(1, eligible.count), "\(people.count) people: tried \(tried.count), \(eligible.count) could be")
            if let next = tried.first {
                #expect(!next.isSameBody(as: first))
                #expect(next.size >= WindowPoser.minAlternativeSize * first.size)
                #expect(next.hipsInFrame || !first.hipsInFrame, "tried someone whose hips are out of the picture")
                #expect(next.size == eligible.map(\.size).max(), "tried \(next.size) px, the biggest who could be measured is \(eligible.map(\.size).max() ?? 0)")
            }
        }
    }

    /// A broadcast picture: the player whole at 150 px, a camera operator at the bottom edge bigger than anyone with
    /// their hips below it, and a line judge of 120 px. The line judge is tried, not the camera operator; with only the
    /// camera operator beside the player, the player is alone.
    @Test func aCameraOperatorBelowThePictureIsNotTried() {
        let player = PersonCandidate(score: 0.9, center: Point2(x: 640, y: 560), size: 150, width: 1280, height: 720)
        let operatorBelow = PersonCandidate(score: 0.8, center: Point2(x: 300, y: 760), size: 280, width: 1280, height: 720)
        let judge = PersonCandidate(score: 0.8, center: Point2(x: 1100, y: 400), size: 120, width: 1280, height: 720)
        #expect(!operatorBelow.hipsInFrame)
        #expect(WindowPoser.alternatives(to: player, among: [player, operatorBelow, judge]).map(\.center) == [judge.center])
        #expect(WindowPoser.alternatives(to: player, among: [player, operatorBelow]).isEmpty)
        // A first person whose own hips are out of the picture is no reason to leave anyone out.
        #expect(WindowPoser.alternatives(to: operatorBelow, among: [operatorBelow, player]).map(\.center) == [player.center])
    }
}
