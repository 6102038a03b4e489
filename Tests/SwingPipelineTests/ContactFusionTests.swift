import Testing
@testable import SwingPipeline

@Suite struct ContactFusionTests {
    @Test func matchesClosestPairsWithinTolerance() {
        let audio = [TimedContact(time: 1.00, confidence: 0.8), TimedContact(time: 3.00, confidence: 0.5),
                     TimedContact(time: 5.00, confidence: 0.7)]
        let visual = [TimedContact(time: 1.04, confidence: 0.5), TimedContact(time: 0.97, confidence: 0.6),
                      TimedContact(time: 4.00, confidence: 0.9), TimedContact(time: 5.30, confidence: 0.5)]
        let fused = fuseContacts(audio: audio, visual: visual, tolerance: 0.1)
        #expect(fused.map(\.source) == [.both, .audio, .visual, .audio])
        // 1.00 pairs with 0.97 (|Δt| 0.03 beats 0.04); noisy-OR 1 − 0.2·0.4 = 0.92; audio time kept.
        #expect(fused[0].time == 1.00)
        #expect(abs(fused[0].confidence - 0.92) < 1e-12)
        #expect(abs((fused[0].offset ?? 0) + 0.03) < 1e-12)
        // 1.04 is left unmatched and below the visual-only minimum (0.6) → dropped; 5.30 is beyond tolerance.
        #expect(fused.filter { $0.source == .visual }.map(\.time) == [4.00])
        // Each fused contact names the inputs it came from.
        #expect(fused.map(\.audioIndex) == [0, 1, nil, 2])
        #expect(fused.map(\.visualIndex) == [1, nil, 2, nil])
    }

    @Test func oneToOneEvenWhenManyAreClose() {
        let audio = [TimedContact(time: 2.0, confidence: 0.5), TimedContact(time: 2.05, confidence: 0.5)]
        let visual = [TimedContact(time: 2.02, confidence: 0.5)]
        let fused = fuseContacts(audio: audio, visual: visual, tolerance: 0.1)
        #expect(fused.filter { $0.source == .both }.count == 1)
        #expect(fused.count == 2)
        #expect(fused.first { $0.source == .both }?.time == 2.0)   // |Δt| 0.02 < 0.03
    }
}
