import Foundation
import SwingCore
import SwingPose
import SwingTestSupport
import Testing
@testable import SwingPipeline

/// Whom a window is posed again for when its first person does not swing: the others in view of at least half
/// that person's size (the far end of the court is not the player), biggest first, never the first person again
/// (nor a second view of their body), and no more than the window's budget.
@Suite struct PersonChoiceTests {
    @Test func alternativesAreThePlayersSizeBiggestFirstAndBounded() {
        var rng = SplitMix64(seed: 4)
        for _ in 0..<500 {
            let people = (0..<rng.int(1...7)).map { _ in
                PersonCandidate(score: rng.uniform(0.5, 1), center: Point2(x: rng.uniform(0, 1920), y: rng.uniform(0, 1080)),
                                size: rng.uniform(60, 900), width: 1920, height: 1080)
            }
            let first = people[rng.int(0...(people.count - 1))]
            let others = WindowPoser.alternatives(to: first, among: people)
            #expect(others.count <= WindowPoser.maxPeoplePerWindow - 1)
            #expect(!others.contains { $0.isSameBody(as: first) })
            #expect(others.allSatisfy { $0.size >= WindowPoser.minAlternativeSize * first.size })
            #expect(zip(others, others.dropFirst()).allSatisfy { $0.size >= $1.size })
            // Nobody left out is bigger than someone taken, unless the budget was full.
            let eligible = people.filter { !$0.isSameBody(as: first) && $0.size >= WindowPoser.minAlternativeSize * first.size }
            #expect(others.count == min(eligible.count, WindowPoser.maxPeoplePerWindow - 1))
            if let smallest = others.last {
                #expect(eligible.filter { !others.contains($0) }.allSatisfy { $0.size <= smallest.size })
            }
        }
    }

    /// A candidate made for a known person reads back where and how big they are, upright and in the picture.
    /// The people the detector found on the first frame of a broadcast clip (`canelp` m001, 1280×720): the player
    /// at the near baseline, a ball kid and a man in red at the bottom edge, legs cut off, bigger than the player.
    /// The biggest person was the man in red, and the shot was measured on him (81 cm/s, 17 cm above his "feet").
    @Test func theBiggestWholeBodyIsThePlayerNotSomeoneCutByTheEdge() throws {
        let people = [(373.0, 513.0, 149.0), (146, 660, 128), (1017, 161, 118), (682, 702, 146), (993, 232, 123), (1161, 691, 174)]
            .map { PersonCandidate(score: 0.9, center: Point2(x: $0.0, y: $0.1), size: $0.2, width: 1280, height: 720) }
        let picked = try #require(PersonChoice.largest.pick(people))
        #expect(people[picked].center == Point2(x: 373, y: 513))
        #expect(!people[5].wholeInFrame && people[5].hipsInFrame)
        // Alone, the man cut by the edge is still followed: someone rather than no one.
        #expect(PersonChoice.largest.pick([people[5], people[3]]) == 0)
    }

    @Test func aCandidateReadsBackItsPlaceAndSize() {
        var rng = SplitMix64(seed: 8)
        for _ in 0..<200 {
            let c = Point2(x: rng.uniform(0, 1280), y: rng.uniform(0, 720)), size = rng.uniform(10, 1000)
            let p = PersonCandidate(score: 0.9, center: c, size: size, width: 1280, height: 720)
            #expect(abs(p.center.x - c.x) < 1e-9 && abs(p.center.y - c.y) < 1e-9)
            #expect(abs(p.size - size) < 1e-6 * size)
            #expect(p.tilt < 1e-9 && p.hipsInFrame)
            #expect(abs(p.position.x - c.x / 1280) < 1e-12 && abs(p.position.y - c.y / 720) < 1e-12)
        }
    }
}
