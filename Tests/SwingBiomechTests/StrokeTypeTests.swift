import Foundation
import SwingTestSupport
import Testing
@testable import SwingBiomech
import SwingCore

/// Stroke types on pose tracks of forehands, backhands and serves made by `tools/make_stroke_tracks.py`
/// (spline swings with jittered keyframes and timing, BlazePose-like noise, both hands, 30–240 fps; no
/// tennis footage with known strokes exists to test on). Issue #27 asks for ≥ 95 % labelled right; the
/// Python reference must give the same labels and per-stroke statistics.
struct StrokeTypeTests {
    struct Truth: Decodable {
        struct Shot: Decodable { var time: Double; var kind: String; var stroke: String?; var swing: Bool }
        var shots: [Shot]
    }

    static var available: Bool { FileManager.default.isExecutableFile(atPath: ReferenceCrossCheckTests.python) }

    /// Sessions of 24 segments (about 12 strokes), half as long at 120 fps and more: a 240-fps track is eight times
    /// a 30-fps one to make and read, and the rates differ in the frames around each contact, not in their number.
    static func segments(fps: Double) -> Int { fps >= 120 ? 12 : 24 }

    static func tracks(fps: Double, hand: String, seed: Int, dir: URL) throws -> (PoseTrack, [ContactEvent], Truth, URL) {
        let prefix = dir.appendingPathComponent("strokes-\(Int(fps))-\(hand)-\(seed)").path
        let (track, contacts, truth) = try GeneratedTracks.make("make_stroke_tracks.py", prefix: prefix, [
            "--fps", "\(fps)", "--hand", hand, "--seed", "\(seed)", "--segments", "\(segments(fps: fps))"], truth: Truth.self)
        return (track, contacts, truth, URL(fileURLWithPath: prefix))
    }

    @Test("Forehands, backhands and serves are labelled right (≥ 95 %), both hands, 30–240 fps",
          .enabled(if: available, "needs the Python venv (make setup)"), arguments: [30.0, 60.0, 120.0, 240.0])
    func labels(fps: Double) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strokes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var right = 0, total = 0, noSwing = 0, rejected = 0
        var strokePeaks: [Double] = [], stillPeaks: [Double] = []
        var confusion: [String: Int] = [:]
        for hand in ["right", "left"] {
            for seed in [1, 2] {
                let (track, contacts, truth, _) = try Self.tracks(fps: fps, hand: hand, seed: seed, dir: dir)
                let p = BiomechParameters(hand: Hand(rawValue: hand) ?? .right)
                let result = BiomechAnalyzer.analyze(track: track, contacts: contacts, parameters: p)
                let shots = result.shots
                // The swing check: every no-swing contact rejected, every stroke kept.
                #expect(result.rejected.map(\.time) == truth.shots.filter { !$0.swing }.map(\.time),
                        "\(hand) seed \(seed): rejected \(result.rejected.map(\.time))")
                try #require(shots.count == truth.shots.filter(\.swing).count)
                noSwing += truth.shots.filter { !$0.swing }.count
                rejected += result.rejected.count
                strokePeaks += shots.compactMap(\.peakWristSpeedCmS)
                stillPeaks += result.rejected.compactMap(\.peakWristSpeedCmS)
                for (shot, t) in zip(shots, truth.shots.filter(\.swing)) {
                    total += 1
                    if shot.stroke?.rawValue == t.stroke { right += 1 } else {
                        confusion["\(t.stroke ?? "-") as \(shot.stroke?.rawValue ?? "none")", default: 0] += 1
                    }
                }
            }
        }
        print("strokes at \(Int(fps)) fps: \(right) of \(total) right \(confusion); swing check: \(total) of \(total) strokes kept "
              + "(slowest peak \(Int(strokePeaks.min() ?? 0)) cm/s), \(rejected) of \(noSwing) no-swing contacts rejected "
              + "(fastest \(Int(stillPeaks.max() ?? 0)) cm/s)")
        #expect(total >= 40 * Self.segments(fps: fps) / 24)
        #expect(Double(right) >= 0.95 * Double(total), "\(right) of \(total); \(confusion)")
    }

    @Test("Per-stroke statistics: each stroke's own mean, SD and consistency, beside the session's",
          .enabled(if: available, "needs the Python venv (make setup)"))
    func perStrokeStatistics() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strokes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (track, contacts, _, _) = try Self.tracks(fps: 60, hand: "right", seed: 5, dir: dir)
        let result = BiomechAnalyzer.analyze(track: track, contacts: contacts, parameters: BiomechParameters())
        let by = try #require(result.stats.byStroke)
        #expect(Set(by.keys) == Set(StrokeType.allCases.map(\.rawValue)))
        for stroke in StrokeType.allCases {
            let these = result.shots.filter { $0.status == .ok && $0.stroke == stroke }
            let own = SessionStats(shots: these)
            #expect(by[stroke.rawValue]?.shotCount == these.count)
            #expect(by[stroke.rawValue]?.forward == own.forward)
            #expect(by[stroke.rawValue]?.consistency == own.consistency)
            #expect(by[stroke.rawValue]?.byStroke == nil)
        }
        // A stroke mix judged as one: the session-wide consistency is far below each stroke's own.
        let session = try #require(result.stats.consistency)
        for (_, s) in by { #expect((s.consistency ?? 0) > session) }
        // Serves are judged by their own Early / Optimal / Late thresholds (0 / 60 cm for a 50-cm trunk; these
        // tracks' trunk is 50 cm give or take their noise).
        for shot in result.shots where shot.stroke == .serve {
            let f = try #require(shot.contact?.forwardCm)
            let limits = (late: 0.0, early: 60.0)
            if abs(f - limits.early) > 3 {
                #expect(shot.classification == ContactClassification.classify(forwardCm: f, lateBelowCm: limits.late, earlyAboveCm: limits.early))
            }
        }
    }

    /// Strokes as real ones are played and filmed, where the old rule (the wrist's side in the pelvis frame) read
    /// every broadcast backhand as a forehand: the hips turned up to 110° into a backhand (the hitting shoulder to
    /// the net, so the hips' right axis points where the ball is met) and half that open at a forehand, the hitting
    /// arm's path staying on the court; filmed from behind the player or from in front (the camera view is read
    /// from the head). Labelled right ≥ 95 %, both hands; and with the hips turned, the pelvis frame alone would not
    /// manage it (else the check would be vacuous).
    @Test("The stroke's side holds however far the hips turn, filmed from behind or in front, both hands",
          .enabled(if: available, "needs the Python venv (make setup)"),
          arguments: [("behind", 60.0), ("behind", 110.0), ("front", 0.0), ("front", 110.0)])
    func turnedHipsFromEitherSide(view: String, hips: Double) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strokes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for hand in ["right", "left"] {
            let prefix = dir.appendingPathComponent("\(view)-\(Int(hips))-\(hand)").path
            let (track, contacts, truth) = try GeneratedTracks.make("make_stroke_tracks.py", prefix: prefix, [
                "--fps", "60", "--hand", hand, "--seed", "11", "--segments", "18", "--kinds", "forehand,backhand,serve",
                "--view", view, "--hips-at-contact", "\(hips)"], truth: Truth.self)
            let p = BiomechParameters(hand: Hand(rawValue: hand) ?? .right)
            let shots = BiomechAnalyzer.analyze(track: track, contacts: contacts, parameters: p).shots
            try #require(shots.count == truth.shots.count)
            let right = zip(shots, truth.shots).filter { $0.0.stroke?.rawValue == $0.1.stroke }.count
            #expect(Double(right) >= 0.95 * Double(shots.count), "\(view), hips \(hips)°, \(hand): \(right) of \(shots.count)")
            if hips >= 110 {
                // The pelvis frame's own lateral axis: most backhands read as forehands.
                let posed = track.samples.enumerated().compactMap { i, s in FrameMeasure(sample: s, trackIndex: i, hand: p.hand) }
                let backhands = truth.shots.filter { $0.stroke == "backhand" }.map(\.time)
                let pelvisSide = backhands.map { t in posed.min { abs($0.time - t) < abs($1.time - t) }?.lateral ?? 0 }
                #expect(pelvisSide.filter { $0 > 0 }.count * 2 > backhands.count, "\(view) \(hand): \(pelvisSide)")
            }
        }
    }

    /// A topspin forehand finishes over the head; measured 80 ms late (the sound's lag, when no delay could be
    /// measured) its wrist is as high above the shoulders as a serve's at contact, but it stays up, where a serve's
    /// arm comes straight down. Without the fall rule most of these would be serves (so the test is not vacuous).
    @Test("A forehand's high finish measured late is a forehand, not a serve", .enabled(if: available, "needs the Python venv (make setup)"))
    func highFinishMeasuredLateIsNoServe() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strokes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for hand in ["right", "left"] {
            let (track, contacts, _) = try GeneratedTracks.make("make_stroke_tracks.py", prefix: dir.appendingPathComponent(hand).path, [
                "--fps", "30", "--hand", hand, "--seed", "4", "--segments", "12", "--kinds", "forehand",
                "--finish", "high", "--heard-late-ms", "80"], truth: Truth.self)
            var p = BiomechParameters(hand: Hand(rawValue: hand) ?? .right)
            p.soundDelayMs = 0
            let shots = BiomechAnalyzer.analyze(track: track, contacts: contacts, parameters: p).shots
            #expect(shots.count == 12)
            #expect(shots.filter { $0.stroke == .forehand }.count >= 11, "\(hand): \(shots.map(\.stroke))")
            var without = p
            without.serveFallWithin = 0
            let old = BiomechAnalyzer.analyze(track: track, contacts: contacts, parameters: without).shots
            #expect(old.filter { $0.stroke == .serve }.count * 2 > old.count, "\(hand) without the rule: \(old.map(\.stroke))")
        }
    }

    /// Issue #39: BlazePose's world scale follows the body it sees (a real serve read at 0.8 of the player's size),
    /// so the same strokes on a body posed half as big or 1.4 times as big must be labelled as at full size, every
    /// one — the rule is in trunk lengths — and judged Early / Optimal / Late the same (the limits scale with the
    /// trunk), where plain centimetres would judge them differently. The centimetres scale with the body. The swing
    /// check is off: its speeds are in cm/s and scale too.
    @Test("The same strokes on a body posed at half to 1.4 times the size are labelled and judged the same, both hands",
          .enabled(if: available, "needs the Python venv (make setup)"), arguments: [0.5, 0.7, 1.4])
    func strokesDoNotDependOnTheBodysScale(scale: Double) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strokes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for hand in ["right", "left"] {
            let (track, contacts, truth, _) = try Self.tracks(fps: 60, hand: hand, seed: 7, dir: dir)
            var p = BiomechParameters(hand: Hand(rawValue: hand) ?? .right)
            p.swingCheck = false
            let scaled = try PoseTrack(samples: track.samples.map { sample in
                var s = sample
                s.world = sample.world.map { $0 * scale }
                return s
            })
            let full = BiomechAnalyzer.analyze(track: track, contacts: contacts, parameters: p).shots
            let small = BiomechAnalyzer.analyze(track: scaled, contacts: contacts, parameters: p).shots
            try #require(full.count == small.count && full.count == truth.shots.count)
            let labelled = zip(truth.shots, full).filter { $0.0.swing }
            let right = labelled.filter { $0.1.stroke?.rawValue == $0.0.stroke }.count
            #expect(Double(right) >= 0.95 * Double(labelled.count), "\(hand) at full size: \(right) of \(labelled.count)")
            #expect(small.map(\.stroke) == full.map(\.stroke), "\(hand) at \(scale)×: \(small.map(\.stroke)) against \(full.map(\.stroke))")
            #expect(small.map(\.classification) == full.map(\.classification),
                    "\(hand) at \(scale)×: \(small.map(\.classification)) against \(full.map(\.classification))")
            // In plain centimetres the smaller or bigger body would be judged otherwise (else the check above is vacuous).
            var plain = p
            plain.thresholdTrunkCm = 0
            let plainSmall = BiomechAnalyzer.analyze(track: scaled, contacts: contacts, parameters: plain).shots
            #expect(plainSmall.map(\.classification) != full.map(\.classification), "\(hand) at \(scale)×")
            for (a, b) in zip(full, small) {
                if let ca = a.contact, let cb = b.contact {
                    #expect(abs(cb.forwardCm - scale * ca.forwardCm) < 1e-6 * max(1, abs(ca.forwardCm)), "the centimetres scale with the body")
                }
            }
        }
    }

    /// Where both hands are at contact, not the racket wrist alone: on small broadcast players BlazePose can put the
    /// racket wrist over the hips while the free hand is clearly out on the backhand side (Sinner's two-handed
    /// backhand in bench/real: +4 cm and −35 cm, its backswing not posed). Swept over contacts met over the hips
    /// with the free hand 25–50 cm on the other side (backhands), and forehands met 30–60 cm out with the free hand
    /// from 35 cm on the other side to 10 cm on the hitting side (Alcaraz's real forehand: +45 and −27); filmed from
    /// behind, both hands, no backswing posed (the player found late in the window), 30 and 60 fps.
    @Test("A stroke met over the hips is on the side where the free hand is; a forehand met out to the side stays one",
          arguments: [30.0, 60.0])
    func theHandsSayTheSide(fps: Double) throws {
        var rng = SplitMix64(seed: UInt64(fps))
        for hand in [Hand.right, .left] {
            for backhand in [true, false] {
                for _ in 0..<20 {
                    let racket = backhand ? rng.uniform(-0.1, 0.1) : rng.uniform(0.3, 0.6)
                    let free = backhand ? rng.uniform(-0.5, -0.25) : rng.uniform(-0.35, 0.1)
                    // From 0.1 s before the contact at 1 s to 0.5 s after: no backswing to read.
                    let samples = (Int(0.9 * fps)...Int(1.5 * fps)).map { i -> PoseSample in
                        let t = Double(i) / fps
                        var sk = Skeleton()
                        sk.hand = hand
                        sk.wrist = Vec3(x: 0.35 + 0.3 * (t - 1), y: racket, z: 0.1)
                        var w = sk.world
                        let side = hand == .right ? 1.0 : -1.0
                        w[BodyLandmark.wrist(of: hand == .right ? .left : .right)] = sk.point(forward: 0.3, right: side * free, up: 0.1)
                        // Facing away from the camera: the nose 8 cm further from it than the ears.
                        w[BodyLandmark.nose] = sk.point(forward: 0.08, right: 0, up: 0.65)
                        w[BodyLandmark.leftEar] = sk.point(forward: 0, right: -0.07, up: 0.63)
                        w[BodyLandmark.rightEar] = sk.point(forward: 0, right: 0.07, up: 0.63)
                        return PoseSample(time: t, world: w)
                    }
                    var p = BiomechParameters(hand: hand, soundDelayMs: 0)
                    p.swingCheck = false
                    let shots = BiomechAnalyzer.analyze(track: try PoseTrack(samples: samples),
                                                        contacts: [ContactEvent(time: 1, confidence: 0.9)], parameters: p).shots
                    let expected: StrokeType = backhand ? .backhand : .forehand
                    #expect(shots.map(\.stroke) == [expected],
                            "\(fps) fps \(hand): racket wrist \(racket), free hand \(free) read \(shots.map(\.stroke))")
                }
            }
        }
    }
}
