import Testing
@testable import SwingPipeline

@Suite struct WindowPiecesTests {
    @Test func mergedWindowsAreSplitBetweenTheirContactsSoWorkersCanShareThem() {
        // A rally: hits every 1.2 s merge into one window; it is split at the midpoints between hits.
        let times = [2.0, 3.2, 4.4, 9.0]
        let merged = SessionAnalyzer.windows(contactTimes: times, before: 1.0, after: 0.5, clip: 0...20)
        #expect(merged.count == 2)
        let pieces = SessionAnalyzer.pieces(of: merged, contactTimes: times)
        let bounds = pieces.map { [$0.lowerBound, $0.upperBound] }
        let expected: [[Double]] = [[1.0, 2.6], [2.6, 3.8], [3.8, 4.9], [8.0, 9.5]]
        #expect(bounds.count == expected.count)
        for (b, e) in zip(bounds, expected) { #expect(abs(b[0] - e[0]) < 1e-9 && abs(b[1] - e[1]) < 1e-9, "\(b) vs \(e)") }
        // Each piece holds exactly one contact, and together they cover the merged windows exactly.
        for (p, t) in zip(pieces, times) { #expect(p.contains(t)) }
    }

    @Test func windowsWithOneContactAreLeftAlone() {
        let w = SessionAnalyzer.windows(contactTimes: [3, 8], before: 1.0, after: 0.5, clip: 0...20)
        #expect(SessionAnalyzer.pieces(of: w, contactTimes: [3, 8]) == w)
        #expect(SessionAnalyzer.pieces(of: [], contactTimes: [3]).isEmpty)
    }
}
