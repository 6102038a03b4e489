import Testing
@testable import SwingPipeline

@Suite struct SwingWindowTests {
    @Test func windowsAreClippedSortedAndMerged() {
        let w = SessionAnalyzer.windows(contactTimes: [5.0, 1.2, 5.8, 20.0], before: 1.0, after: 0.5, clip: 0...10)
        // 1.2 → [0.2, 1.7]; 5.0 → [4.0, 5.5] and 5.8 → [4.8, 6.3] overlap → [4.0, 6.3]; 20 is outside.
        #expect(w.count == 2)
        #expect(abs(w[0].lowerBound - 0.2) < 1e-12 && abs(w[0].upperBound - 1.7) < 1e-12)
        #expect(abs(w[1].lowerBound - 4.0) < 1e-12 && abs(w[1].upperBound - 6.3) < 1e-12)
    }

    @Test func windowAtTheStartIsClippedToTheClip() {
        let w = SessionAnalyzer.windows(contactTimes: [0.3], before: 1.0, after: 0.5, clip: 0...10)
        #expect(w.count == 1 && w[0].lowerBound == 0 && abs(w[0].upperBound - 0.8) < 1e-12)
    }

    @Test func poseSizeKeepsAspectAndEvenSides() throws {
        let s = try #require(SessionAnalyzer.poseSize((1920, 1080), maxSide: 1280))
        #expect(s.0 == 1280 && s.1 == 720)
        #expect(SessionAnalyzer.poseSize((1280, 720), maxSide: 1280) == nil)      // already small enough
        let portrait = try #require(SessionAnalyzer.poseSize((1080, 1921), maxSide: 1280))
        #expect(portrait.1 == 1280 && portrait.0 % 2 == 0 && portrait.1 % 2 == 0)
    }
}
