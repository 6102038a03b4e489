import Testing
import SwingBiomech
@testable import SwingPipeline

@Suite struct PoseScheduleTests {
    /// 60 fps, 15 fps away from contacts → every 4th frame; the interpolation and the i ± 3 wrist speed
    /// read frames up to 4 from t_c, plus the 1-frame margin.
    @Test func contactCoreIsPosedAtFullRateAndTheRestOnTheGrid() {
        let s = PoseSchedule(contactTimes: [10.0], frameRate: 60, sampling: PoseSampling(), biomech: BiomechParameters())
        #expect(s.outerStep == 4)
        for index in 595...605 { #expect(s.wants(time: Double(index) / 60, index: index), "frame \(index)") }
        #expect(!s.wants(time: 594 / 60, index: 594))
        #expect(!s.wants(time: 606 / 60, index: 606))
        #expect(s.wants(time: 592 / 60, index: 592))
        #expect(s.wants(time: 608 / 60, index: 608))
        let far = (500..<580).filter { s.wants(time: Double($0) / 60, index: $0) }
        #expect(far == Array(stride(from: 500, to: 580, by: 4)))
    }

    @Test func contactBetweenFramesStillGetsBothNeighboursAndSpeedFrames() {
        // t_c = 10.0083 s lies between frames 600 and 601; the nearest is 600 or 601 and the speed reads ±3.
        let s = PoseSchedule(contactTimes: [10.0083], frameRate: 60, sampling: PoseSampling(), biomech: BiomechParameters())
        for index in 597...604 { #expect(s.wants(time: Double(index) / 60, index: index), "frame \(index)") }
    }

    @Test func rateAtOrAboveTheVideoRatePosesEveryFrame() {
        for rate in [nil, 30.0, 60.0] {
            let s = PoseSchedule(contactTimes: [1], frameRate: 30,
                                 sampling: PoseSampling(outerFramesPerSecond: rate), biomech: BiomechParameters())
            #expect(s.outerStep == 1)
            #expect((0..<200).allSatisfy { s.wants(time: Double($0) / 30, index: $0) })
        }
    }

    @Test func bestConfidenceModeWidensTheCoreToItsSearchSpan() {
        var b = BiomechParameters()
        b.contactFrame = .bestConfidence   // searches ±5 frames, then reads ±3 around the chosen one
        let s = PoseSchedule(contactTimes: [10.0], frameRate: 60, sampling: PoseSampling(), biomech: b)
        for index in 590...610 { #expect(s.wants(time: Double(index) / 60, index: index), "frame \(index)") }
        #expect(!s.wants(time: 589 / 60, index: 589))
        var wide = BiomechParameters()
        wide.speedHalfSpan = 6
        let w = PoseSchedule(contactTimes: [10.0], frameRate: 60, sampling: PoseSampling(coreMarginFrames: 0), biomech: wide)
        for index in 593...607 { #expect(w.wants(time: Double(index) / 60, index: index), "frame \(index)") }
    }

    @Test func nearestContactDistanceWithUnsortedContacts() {
        let s = PoseSchedule(contactTimes: [7, 1, 4], frameRate: 60, sampling: PoseSampling(), biomech: BiomechParameters())
        #expect(s.distanceToNearestContact(0) == 1)
        #expect(abs(s.distanceToNearestContact(2.4) - 1.4) < 1e-12)
        #expect(abs(s.distanceToNearestContact(5.6) - 1.4) < 1e-12)
        #expect(s.distanceToNearestContact(9) == 2)
        let none = PoseSchedule(contactTimes: [], frameRate: 60, sampling: PoseSampling(), biomech: BiomechParameters())
        #expect(none.distanceToNearestContact(3) == .infinity)
    }

    @Test("With the delay to be measured, the core reaches back over the delay range: the distance is to the span")
    func measuringTheDelayPosesTheRangeBeforeEachContact() {
        var b = BiomechParameters()
        b.soundDelayMs = nil   // measured: spans [t − 0.3, t]
        let s = PoseSchedule(contactTimes: [7, 1, 4], frameRate: 60, sampling: PoseSampling(), biomech: b)
        #expect(abs(s.coreBefore - 0.3) < 1e-12)
        // Brute force over a fine grid: the distance to the nearest span [t − 0.3, t].
        for k in 0...1000 {
            let time = Double(k) * 0.009
            let truth = [7.0, 1, 4].map { c in time > c ? time - c : max(0, c - 0.3 - time) }.min() ?? .infinity
            #expect(abs(s.distanceToNearestCore(time) - truth) < 1e-9, "\(time)")
        }
        // Every frame of the span and the core after it is posed; the outer grid elsewhere.
        for index in (Int(3.7 * 60) - 5)...(4 * 60 + 5) { #expect(s.wants(time: Double(index) / 60, index: index), "frame \(index)") }
        #expect(!s.wants(time: 3.55, index: 213) && !s.wants(time: 4.15, index: 249))
        // Given (0 ms): no span, today's core.
        let given = PoseSchedule(contactTimes: [4], frameRate: 60, sampling: PoseSampling(), biomech: BiomechParameters())
        #expect(given.coreBefore == 0 && given.distanceToNearestCore(3.8) == given.distanceToNearestContact(3.8))
    }

    @Test func invalidSamplingIsExplained() {
        #expect(PoseSampling().problem == nil)
        #expect(PoseSampling.everyFrame.problem == nil)
        #expect(PoseSampling(outerFramesPerSecond: -2).problem != nil)
        #expect(PoseSampling(outerFramesPerSecond: .nan).problem != nil)
        #expect(PoseSampling(coreMarginFrames: -1).problem != nil)
        #expect(PoseSampling(workers: -1).problem != nil)
    }
}
