import Foundation
import SwingBiomech
import SwingCore
import SwingTestSupport
import Testing
@testable import SwingPipeline

/// The pose stage's passes with the sound delay to measure (SessionPosing.swift): the loudest hits posed with
/// their delay range, the rest only around their instants. Checked on generated stroke sessions (known delay,
/// the opponent's hits between the player's) against posing every window with its delay range — the
/// "video" here is the generated track, posed where the schedule asks.
struct PosePassesTests {
    /// Poses a generated track where a pass's pieces and schedule say, as ``SessionAnalyzer/PassPoser`` poses a video.
    struct TrackPoser: PassPosing {
        let full: PoseTrack
        var posed: [Double: PoseSample] = [:]
        var passes: [(segments: [ClosedRange<Double>], schedule: PoseSchedule)] = []

        mutating func expect(seconds: Double) {}

        mutating func pose(segments: [ClosedRange<Double>], schedule: PoseSchedule, measuring: Bool) throws {
            passes.append((segments, schedule))
            for (index, s) in full.samples.enumerated()
            where segments.contains(where: { $0.contains(s.time) }) && schedule.wants(time: s.time, index: index) {
                // A frame on a split point belongs to two pieces; each is posed once.
                #expect(posed[s.time] == nil || segments.contains { $0.lowerBound == s.time || $0.upperBound == s.time })
                if posed[s.time] == nil { posed[s.time] = s }
            }
        }

        func track() throws -> PoseTrack { try PoseTrack(samples: posed.values.sorted { $0.time < $1.time }) }

        /// The generated track has one person: looking again would pose the same frames.
        var lookedAgain: [[ClosedRange<Double>]] = []
        mutating func lookAgain(segments: [ClosedRange<Double>], schedule: PoseSchedule, judgeAt: [ClosedRange<Double>]) throws {
            if !segments.isEmpty { lookedAgain.append(segments) }
        }
    }

    static func analyzer(_ biomech: BiomechParameters) throws -> SessionAnalyzer {
        var options = AnalysisOptions()
        options.biomech = biomech
        return try SessionAnalyzer(options: options, modelsDirectory: TestFiles.package("Models"))
    }

    @Test("The delay from the loudest few equals the truth, every instant's core is posed, and the shots measure as on the whole track",
          arguments: [(30.0, 8), (30.0, 20), (60.0, 20), (120.0, 12)])
    func passes(fps: Double, strokes: Int) throws {
        let p = BiomechParameters(soundDelayMs: nil)
        for (k, delay) in [0.0, 98, 136, 220].enumerated() {
            var s = try StrokeSession.make(strokes: strokes, delayMs: delay, fps: fps, hand: k % 2 == 0 ? .right : .left,
                                           opponentHits: true, noiseCm: 0.5, seed: UInt64(k * 100 + strokes))
            // The player's hits are the loud ones; the opponent's 18 dB quieter.
            for i in s.heard.indices {
                let own = s.hits.contains { abs(s.heard[i].time - delay / 1000 - $0) < 0.01 }
                s.heard[i].loudnessDb = own ? -Double(i % 4) : -18
            }
            var biomech = p
            biomech.hand = k % 2 == 0 ? .right : .left
            let analyzer = try Self.analyzer(biomech)
            var poser = TrackPoser(full: s.track)
            let end = s.track.samples.last?.time ?? 0
            let passed = try analyzer.posePasses(contacts: s.heard, frameRate: fps, clip: 0...end, poser: &poser)
            let measured = try #require(passed)
            #expect(measured.source == .measured && abs(measured.ms - delay) <= max(10, 333 / fps), "\(fps) fps \(delay) ms: \(measured)")

            // The first pass posed the loudest batch's pieces, with every contact's delay range; the last every
            // other contact's piece, around the instants.
            let batch = biomech.soundDelayEvidenceShots
            let first = try #require(poser.passes.first)
            #expect(first.segments.count == min(batch, strokes))
            #expect(first.schedule.spans.allSatisfy { $0.upperBound - $0.lowerBound >= 0.3 - 1e-9 })
            #expect(poser.lookedAgain.isEmpty, "\(fps) fps \(delay) ms: the player's swung hits are not posed again")
            let last = try #require(poser.passes.last)
            #expect(last.schedule.spans.count == Set(s.heard.map { measured.instant(heard: $0.time) }).count)
            // The last pass's pieces are windows around the other contacts' instants, without the delay range:
            // no longer in all than those windows, and outside the measuring passes' pieces.
            let measuring = poser.passes.dropLast().flatMap(\.segments)
            let rest = s.heard.filter { c in !measuring.contains { $0.contains(c.time) } }
            let restSeconds = last.segments.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
            #expect(restSeconds <= Double(rest.count) * (biomech.windowBefore + biomech.windowAfter) + 1e-9)
            #expect(last.segments.allSatisfy { piece in
                measuring.allSatisfy { piece.upperBound <= $0.lowerBound || piece.lowerBound >= $0.upperBound } })

            // Every frame the metrics read around each contact's instant is posed.
            let schedule = PoseSchedule(contactTimes: [], frameRate: fps, sampling: analyzer.options.poseSampling,
                                        biomech: biomech, reachBack: false)
            let posedTimes = Set(poser.posed.keys)
            for c in s.heard {
                let instant = measured.instant(heard: c.time)
                for f in s.track.samples where abs(f.time - instant) <= schedule.coreHalfWidth - 0.5 / fps {
                    let posed = posedTimes.contains(f.time)
                    #expect(posed, "\(fps) fps \(delay) ms: frame \(f.time) near instant \(instant) not posed")
                }
            }

            // The shots read what they read on the whole track at that delay: the same instants and contact points.
            let twoPass = BiomechAnalyzer.analyze(track: try poser.track(), contacts: s.heard, parameters: biomech, soundDelay: measured)
            let whole = BiomechAnalyzer.analyze(track: s.track, contacts: s.heard, parameters: biomech, soundDelay: measured)
            #expect(twoPass.shots.count == whole.shots.count && twoPass.rejected.count == whole.rejected.count,
                    "\(fps) fps \(delay) ms: \(twoPass.shots.count)/\(twoPass.rejected.count) vs \(whole.shots.count)/\(whole.rejected.count)")
            for (a, b) in zip(twoPass.shots, whole.shots) {
                #expect(a.contactTime == b.contactTime && a.stroke == b.stroke)
                #expect(abs((a.contact?.forwardCm ?? 0) - (b.contact?.forwardCm ?? 0)) < 1e-9)
                #expect(abs((a.wristSpeedCmS ?? 0) - (b.wristSpeedCmS ?? 0)) < 1e-9)
            }

            // Fewer frames than reaching back on every contact, once there are more contacts than one batch.
            var everyOne = TrackPoser(full: s.track)
            try everyOne.pose(segments: analyzer.pieces(contactTimes: s.heard.map(\.time), reachBack: true, clip: 0...end).map(\.range),
                              schedule: analyzer.schedule(s.heard.map(\.time), reachBack: true, frameRate: fps))
            #expect(poser.posed.count <= everyOne.posed.count)
            if s.heard.count > 2 * batch { #expect(poser.posed.count < everyOne.posed.count, "\(poser.posed.count) vs \(everyOne.posed.count)") }
        }
    }

    @Test("Subtracting posed pieces leaves exactly the rest of the windows, never overlapping them", arguments: 0..<200)
    func subtract(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed))
        func ranges(_ n: Int) -> [ClosedRange<Double>] {
            var out: [ClosedRange<Double>] = [], t = 0.0
            for _ in 0..<n { t += rng.uniform(0, 2); let a = t; t += rng.uniform(0.01, 2); out.append(a...t) }
            return out
        }
        let windows = ranges(Int(rng.uniform(0, 6))), removed = ranges(Int(rng.uniform(0, 6)))
        let left = SessionAnalyzer.subtract(removed, from: windows)
        for (a, b) in zip(left, left.dropFirst()) { #expect(a.upperBound <= b.lowerBound) }
        // Every point of a window is either in what is left or in a removed range, and no point of what is left is
        // strictly inside a removed range.
        for _ in 0..<200 {
            let t = rng.uniform(0, 20)
            let inWindow = windows.contains { $0.contains(t) }, inRemoved = removed.contains { $0.contains(t) }
            let inLeft = left.contains { $0.contains(t) }
            if inWindow && !inRemoved { #expect(inLeft, "\(t) lost: \(windows) - \(removed) = \(left)") }
            if inLeft { #expect(inWindow) }
            if removed.contains(where: { $0.lowerBound < t && t < $0.upperBound }) { #expect(!inLeft, "\(t) kept inside a removed range") }
        }
    }

    @Test("A loud contact posed while measuring the delay, with no swing at its instant, is posed again; nothing else is",
          arguments: [(30.0, 0.0), (60.0, 136), (30.0, 220)])
    func looksAgainWhereNobodySwung(fps: Double, delay: Double) throws {
        var s = try StrokeSession.make(strokes: 8, delayMs: delay, fps: fps, hand: .right, opponentHits: false, noiseCm: 0.5,
                                       seed: UInt64(fps + delay))
        for i in s.heard.indices { s.heard[i].loudnessDb = -Double(i % 3) }
        // The loudest sound of all comes between two strokes, where the player only drifts (someone else's hit, or
        // the player's measured on a person who was walking).
        let stray = (s.hits[2] + s.hits[3]) / 2 + delay / 1000
        s.heard.append(ContactEvent(time: stray, confidence: 0.9, loudnessDb: 1))
        s.heard.sort { $0.time < $1.time }
        let analyzer = try Self.analyzer(BiomechParameters(soundDelayMs: nil))
        var poser = TrackPoser(full: s.track)
        let end = s.track.samples.last?.time ?? 0
        let measured = try #require(try analyzer.posePasses(contacts: s.heard, frameRate: fps, clip: 0...end, poser: &poser))
        #expect(measured.source == .measured && abs(measured.ms - delay) <= max(10, 333 / fps), "\(measured)")
        let again = poser.lookedAgain.flatMap { $0 }
        #expect(again.count == 1 && again.allSatisfy { $0.contains(stray) }, "\(fps) fps \(delay) ms: \(again)")
        #expect(again.allSatisfy { piece in !s.hits.contains { piece.contains($0 + delay / 1000) } })
    }

    @Test("A given delay is one pass at the instants; with only quiet sounds nothing reaches back and shots sit at the heard times")
    func givenAndNoCandidates() throws {
        let s = try StrokeSession.make(strokes: 4, delayMs: 120, fps: 30, hand: .right, opponentHits: false, noiseCm: 0.5, seed: 4)
        let end = s.track.samples.last?.time ?? 0
        let given = BiomechParameters(soundDelayMs: 120)
        var poser = TrackPoser(full: s.track)
        let none0 = try Self.analyzer(given).posePasses(contacts: s.heard, frameRate: 30, clip: 0...end, poser: &poser)
        #expect(none0 == nil)
        #expect(poser.passes.count == 1 && poser.passes[0].schedule.coreBefore == 0)
        for (t, heard) in zip(poser.passes[0].schedule.contactTimes, s.heard) { #expect(abs(t - (heard.time - 0.12)) < 1e-12) }

        let measuring = BiomechParameters(soundDelayMs: nil)
        var quiet = s.heard
        for i in quiet.indices { quiet[i].loudnessDb = i == 0 ? 0 : -20 }
        quiet.removeFirst()   // only sounds much quieter than the loudest (now gone): no evidence for the delay
        var none = TrackPoser(full: s.track)
        let delay = try Self.analyzer(measuring).posePasses(contacts: quiet, frameRate: 30, clip: 0...end, poser: &none)
        #expect(delay?.source == SoundDelay.Source.none && none.passes.count == 1)
        #expect(none.passes.first?.schedule.contactTimes == quiet.map(\.time))
        #expect(none.passes.first?.schedule.spans.allSatisfy { $0.lowerBound == $0.upperBound } == true)
    }
}
