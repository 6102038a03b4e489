import Foundation
import Testing
import SwingCore
import SwingTestSupport
@testable import SwingBiomech

@Suite struct StatsTests {
    @Test(arguments: [(20.0, ContactClassification.optimal), (19.999, .late), (60.0, .optimal), (60.001, .early),
                      (-5.0, .late), (40.0, .optimal), (120.0, .early)])
    func classificationBoundariesCountAsOptimal(forward: Double, expected: ContactClassification) {
        #expect(ContactClassification.classify(forwardCm: forward, lateBelowCm: 20, earlyAboveCm: 60) == expected)
    }

    @Test func classificationThresholdsAreConfigurable() throws {
        var sk = Skeleton()
        sk.wrist = Vec3(x: 0.25, y: 0.5, z: 0)
        let track = try makeTrack(count: 60) { _, t in sk.sample(at: t) }
        var p = BiomechParameters.geometry
        let contact = [ContactEvent(time: 0.5, confidence: 1)]
        #expect(BiomechAnalyzer.analyze(track: track, contacts: contact, parameters: p).shots[0].classification == .optimal)
        p.lateBelowCm = 30
        #expect(BiomechAnalyzer.analyze(track: track, contacts: contact, parameters: p).shots[0].classification == .late)
        p.lateBelowCm = 0; p.earlyAboveCm = 24
        #expect(BiomechAnalyzer.analyze(track: track, contacts: contact, parameters: p).shots[0].classification == .early)
    }

    @Test(arguments: [(10.0, 22.313016014842983), (5.0, 68.72892787909722), (2.0, 94.17645335842487), (0.0, 100.0)])
    func consistencyFromEqualSDs(sd: Double, expected: Double) {
        let c = SessionStats.consistency(sdForwardCm: sd, sdLateralCm: sd, sdHeightCm: sd)
        #expect(abs(c - expected) < 1e-9)
    }

    @Test func statsUsePopulationSDAndSkipNoPersonShots() throws {
        // Three shots 1 s apart with forward 30/40/50 cm, lateral 50/50/50, height varying 90/100/110.
        let forwards = [0.30, 0.40, 0.50], ups = [-0.07, 0.03, 0.13]
        let track = try makeTrack(count: 300) { i, t in
            var sk = Skeleton()
            let k = min(max(Int((t - 0.5).rounded()), 0), 2)
            sk.wrist = Vec3(x: forwards[k], y: 0.5, z: ups[k])
            // Each shot's wrist moves sideways at (k + 1) m/s, passing its nominal point at the contact,
            // so min/max/mean speeds are distinct and the contact metrics stay exact.
            var s = sk.sample(at: t)
            let dx = Double(k + 1) * (t - (0.5 + Double(k)))
            s.world[BodyLandmark.rightWrist] = s.world[BodyLandmark.rightWrist] + Vec3(x: dx, y: 0, z: 0)
            return s
        }
        let contacts = [0.5, 1.5, 2.5].map { ContactEvent(time: $0 + 1e-9, confidence: 1) }
            + [ContactEvent(time: 9, confidence: 1)]   // after the track: no person
        let r = BiomechAnalyzer.analyze(track: track, contacts: contacts, parameters: BiomechParameters.geometry)
        let st = r.stats
        #expect(st.shotCount == 3)
        let f = try #require(st.forward), h = try #require(st.height), l = try #require(st.lateral)
        #expect(abs(f.meanCm - 40) < 1e-6)
        #expect(abs(f.sdCm - (200.0 / 3).squareRoot()) < 1e-6)   // ddof 0: 8.165, not 10
        #expect(abs(h.sdCm - (200.0 / 3).squareRoot()) < 1e-6)
        #expect(abs(l.sdCm) < 1e-6)
        let expected = 100 * exp(-0.5 * 2 * (200.0 / 3) / 100)
        #expect(abs(try #require(st.consistency) - expected) < 1e-6)
        let w = try #require(st.wristSpeed)
        #expect(abs(w.minCmS - 100) < 1e-6 && abs(w.maxCmS - 300) < 1e-6 && abs(w.meanCmS - 200) < 1e-6)
    }

    @Test func noShotsGiveEmptyStats() {
        let st = SessionStats(shots: [])
        #expect(st.shotCount == 0 && st.consistency == nil && st.forward == nil && st.wristSpeed == nil)
    }

    @Test func gaussianSmoothingKeepsConstantsAndSpreadsAnImpulse() {
        #expect(GaussianSmoother.smooth([3, 3, 3, 3, 3, 3]).allSatisfy { abs($0 - 3) < 1e-12 })
        let impulse = GaussianSmoother.smooth([0, 0, 0, 0, 1, 0, 0, 0, 0])
        let w = [exp(-2.0), exp(-0.5), 1, exp(-0.5), exp(-2.0)]
        let norm = w.reduce(0, +)
        #expect(abs(impulse[4] - 1 / norm) < 1e-12)      // 0.4026 (σ = 1 frame)
        #expect(abs(impulse[2] - exp(-2.0) / norm) < 1e-12)
        #expect(impulse[1] == 0)
        // At the ends the missing taps are dropped and the rest renormalised.
        let edge = GaussianSmoother.smooth([1, 0, 0, 0, 0])
        #expect(abs(edge[0] - 1 / (1 + exp(-0.5) + exp(-2.0))) < 1e-12)
    }

    @Test func arcIsSmoothedButMetricsAreNot() throws {
        let track = try makeTrack(count: 120) { i, t in
            var sk = Skeleton()
            sk.wrist = Vec3(x: i == 60 ? 1.0 : 0.4, y: 0.5, z: 0)   // a one-frame spike at contact
            return sk.sample(at: t)
        }
        let s = BiomechAnalyzer.analyze(track: track, contacts: [ContactEvent(time: 1.0, confidence: 1)],
                                        parameters: BiomechParameters.geometry).shots[0]
        #expect(abs((s.contact?.forwardCm ?? 0) - 100) < 1e-9)
        let arc = try #require(s.arc)
        #expect(arc.body.count == 91)   // t 0.0 … 1.5 at 60 fps
        let atContact = try #require(arc.body.first { abs($0.time - 1.0) < 1e-12 })
        #expect(atContact.forwardCm < 70 && atContact.forwardCm > 40)
        #expect(arc.image == nil)       // no image landmarks in this track
    }
}
