import Foundation
import SwingCore
import SwingTestSupport
import Testing
@testable import SwingVision

/// The counter's line crossings on classes of input: seeded scenes of objects crossing (or passing beside)
/// random lines, detected with noise and followed by ``ByteTracker``, scored against the geometry of their
/// true paths; objects that stop on the line and wobble; lines given in every orientation; and the one-line
/// run summaries the studio stores.
@Suite struct LineCrossingTests {
    static let width = 1280, height = 720

    /// A straight path from `a` to `b` (normalised) over `frames` frames.
    struct Path {
        var a: Point2, b: Point2, frames: Int, start: Int, label: String

        func centre(_ f: Int) -> Point2 {
            let t = Double(f - start) / Double(max(1, frames - 1))
            return Point2(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
        }
    }

    /// The truth for a path against a line: +1 (forward), -1 (backward) or 0 (no crossing of the segment), or
    /// `nil` when the path runs too close to the segment's ends or starts/ends too near the line to be fair.
    static func truth(_ p: Path, _ l: LineCrossings.Line) -> Int?? {
        func signed(_ q: Point2) -> Double {
            let dx = l.x2 - l.x1, dy = l.y2 - l.y1
            return (dx * (q.y - l.y1) - dy * (q.x - l.x1)) / (dx * dx + dy * dy).squareRoot()
        }
        let sa = signed(p.a), sb = signed(p.b)
        guard abs(sa) > 0.05, abs(sb) > 0.05 else { return .some(nil) }
        guard (sa > 0) != (sb > 0) else { return 0 }
        // Where along the line the path crosses it (0…1 is the segment).
        let dx = l.x2 - l.x1, dy = l.y2 - l.y1, mx = p.b.x - p.a.x, my = p.b.y - p.a.y
        let u = ((p.a.x - l.x1) * my - (p.a.y - l.y1) * mx) / (dx * my - dy * mx)
        if abs(u) < 0.06 || abs(u - 1) < 0.06 { return .some(nil) }
        return (0...1).contains(u) ? (sb > 0 ? 1 : -1) : 0
    }

    /// Detections of the paths with Gaussian noise σ (pixels) on the centre, boxes 60×120 px.
    static func frames(_ paths: [Path], count: Int, noise: Double, rng: inout SplitMix64) -> [[Detection]] {
        (0..<count).map { f in
            paths.enumerated().compactMap { k, p -> Detection? in
                guard (p.start..<(p.start + p.frames)).contains(f) else { return nil }
                let c = p.centre(f)
                let cx = c.x * Double(width) + noise * rng.gaussian(), cy = c.y * Double(height) + noise * rng.gaussian()
                return Detection(classId: k % 2, label: k % 2 == 0 ? "person" : "car", confidence: rng.uniform(0.6, 0.95),
                                 box: Rect(cx: cx, cy: cy, w: 60, h: 120))
            }
        }
    }

    /// Tracks the frames with ByteTracker and counts with the counter interpreter's video path (what
    /// `detect --track --interpret counter` and the studio's video job run).
    static func count(_ frames: [[Detection]], line: LineCrossings.Line) -> LineCrossings.Summary? {
        var tracker = ByteTracker(configuration: .init(), frameRate: 30)
        let interpreterFrames = frames.enumerated().map { f, dets -> InterpreterFrame in
            let tracked = tracker.update(dets, time: Double(f) / 30)
            return InterpreterFrame(detections: tracked.map(\.detection), frameIndex: f, time: Double(f) / 30,
                                    width: width, height: height, trackIds: tracked.map(\.trackId))
        }
        return CounterInterpreter(configuration: .init(line: line)).crossings(interpreterFrames)
    }

    @Test func seededScenesCountEveryCrossingOfTheSegmentOnce() {
        var rng = SplitMix64(seed: 2026)
        var scored = 0, expectedTotal = 0
        for _ in 0..<60 {
            let line = LineCrossings.Line(x1: rng.uniform(0.05, 0.5), y1: rng.uniform(0.1, 0.9),
                                          x2: rng.uniform(0.5, 0.95), y2: rng.uniform(0.1, 0.9))
            var paths: [Path] = []
            var expected: [String: LineCrossings.Count] = [:]
            var fair = true
            for k in 0..<Int(rng.uniform(1, 5)) {
                // Well-separated lanes: the tracker keeps identities, so the score measures the counter.
                let lane = 0.12 + 0.2 * Double(k)
                let p = Path(a: Point2(x: rng.uniform(0.05, 0.95), y: lane), b: Point2(x: rng.uniform(0.05, 0.95), y: 1 - lane),
                             frames: Int(rng.uniform(40, 90)), start: Int(rng.uniform(0, 20)), label: k % 2 == 0 ? "person" : "car")
                paths.append(p)
                guard let t = Self.truth(p, line), let t else { fair = false; break }
                if t != 0 {
                    var c = expected[p.label] ?? .init()
                    if t > 0 { c.forward += 1 } else { c.backward += 1 }
                    expected[p.label] = c
                }
            }
            guard fair, paths.count == Set(paths.map { Int($0.a.y * 100) }).count else { continue }
            scored += 1
            let frames = Self.frames(paths, count: 120, noise: 1.5, rng: &rng)
            let summary = Self.count(frames, line: line)
            #expect(summary?.counts == expected, "line \(line), paths \(paths.map { ($0.a, $0.b) })")
            let n = expected.values.map { $0.forward + $0.backward }.reduce(0, +)
            expectedTotal += n
            #expect(summary?.total == n)
            #expect(summary?.crossings.count == n)
        }
        #expect(scored >= 25, "too few fair scenes to mean anything: \(scored)")
        #expect(expectedTotal >= 15, "the scenes must contain crossings: \(expectedTotal)")
    }

    @Test func anObjectThatStopsOnTheLineAndWobblesCountsOnce() {
        var rng = SplitMix64(seed: 7)
        // Walks down onto the middle line in 30 frames, then stands on it for 200 frames with 3 px of jitter.
        let walk = (0..<230).map { f -> [Detection] in
            let y = f < 30 ? 0.3 + 0.2 * Double(f) / 30 : 0.5
            let cy = y * Double(Self.height) + 3 * rng.gaussian(), cx = 640 + 3 * rng.gaussian()
            return [Detection(classId: 0, label: "person", confidence: 0.9, box: Rect(cx: cx, cy: cy, w: 60, h: 120))]
        }
        var counter = LineCrossings()
        var withoutBand = LineCrossings(margin: 0)
        for (f, dets) in walk.enumerated() {
            let objects = dets.map { LineCrossings.Object(trackId: 1, label: $0.label, box: $0.box) }
            counter.update(objects, width: Self.width, height: Self.height, time: Double(f))
            withoutBand.update(objects, width: Self.width, height: Self.height, time: Double(f))
        }
        #expect(counter.current.total <= 1)
        // The band is what keeps the count: without it the jitter counts dozens of crossings.
        #expect(withoutBand.current.total > 10)
    }

    @Test func directionFollowsTheLinesOrientation() {
        // Moving down across a horizontal line drawn left to right is forward; drawn right to left, backward.
        let down = (0..<20).map { f in [LineCrossings.Object(trackId: 3, label: "car", box: Rect(cx: 640, cy: 200 + 20 * Double(f), w: 40, h: 40))] }
        for (line, forward) in [(LineCrossings.Line.middle, true), (LineCrossings.Line(x1: 1, y1: 0.5, x2: 0, y2: 0.5), false)] {
            var counter = LineCrossings(line: line)
            var seen: [LineCrossings.Crossing] = []
            for (f, objects) in down.enumerated() {
                seen += counter.update(objects, width: Self.width, height: Self.height, time: Double(f) / 10).crossings
            }
            #expect(seen.count == 1)
            #expect(seen.first?.forward == forward)
            #expect(seen.first?.trackId == 3)
            #expect(counter.current.counts["car"] == (forward ? .init(forward: 1) : .init(backward: 1)))
        }
        // A vertical line drawn top to bottom: its right side (as you walk it) is the picture's left.
        var vertical = LineCrossings(line: .init(x1: 0.5, y1: 0, x2: 0.5, y2: 1))
        for x in stride(from: 900.0, through: 300, by: -60) {
            vertical.update([.init(trackId: 1, label: "person", box: Rect(cx: x, cy: 360, w: 40, h: 80))],
                            width: Self.width, height: Self.height, time: 0)
        }
        #expect(vertical.current.counts["person"] == .init(forward: 1))
    }

    @Test func passingBesideTheSegmentIsNotACrossing() {
        var counter = LineCrossings(line: .init(x1: 0.3, y1: 0.5, x2: 0.6, y2: 0.5))
        for f in 0..<30 {
            // Crosses y = 0.5 at x = 0.8, beyond the segment's end.
            counter.update([.init(trackId: 1, label: "person", box: Rect(cx: 0.8 * 1280, cy: 100 + 18 * Double(f), w: 40, h: 80))],
                           width: Self.width, height: Self.height, time: Double(f))
        }
        #expect(counter.current.total == 0)
    }

    @Test func hostileInputNeverCrashesNorCounts() {
        var counter = LineCrossings(line: .init(x1: .nan, y1: 0, x2: 1e19, y2: -1), margin: .infinity)
        #expect(counter.line == .middle)   // an unusable line falls back to the middle
        #expect(counter.margin == 0)
        let boxes = [Rect(x1: .nan, y1: 0, x2: 1, y2: 1), Rect(x1: -.infinity, y1: 0, x2: .infinity, y2: 1),
                     Rect(x1: 0, y1: 0, x2: 1e300, y2: 1e300)]
        for (i, box) in boxes.enumerated() {
            counter.update([.init(trackId: i, label: "x", box: box)], width: Self.width, height: Self.height, time: 0)
            counter.update([.init(trackId: i, label: "x", box: box)], width: 0, height: -5, time: 0)
        }
        #expect(counter.current.total == 0)
        #expect(!LineCrossings.Line(x1: 0.2, y1: 0.2, x2: 0.2, y2: 0.2).isValid)
        // The counter refuses such a line in its options with the sentence the API passes on.
        let bad = Data(#"{"line": {"x1": 0, "y1": 0.5, "x2": 2, "y2": 0.5}}"#.utf8)
        #expect(throws: InterpreterError.self) { try InterpreterRegistry.standard.interpreter(named: "counter", configuration: bad) }
    }

    @Test func untrackedFramesHaveNoCrossings() {
        let frame = InterpreterFrame(detections: [Detection(classId: 0, label: "person", confidence: 0.9, box: Rect(x1: 0, y1: 0, x2: 10, y2: 10))],
                                     width: 100, height: 100)
        #expect(CounterInterpreter().interpretVideo([frame, frame]).crossings == nil)
        // Track ids that do not match the detections one to one are dropped rather than misattributed.
        #expect(InterpreterFrame(detections: frame.detections, width: 100, height: 100, trackIds: [1, 2]).trackIds == nil)
    }

    // MARK: - The stored run's one line

    @Test func runSummariesSayWhatTheInterpreterSaw() {
        let person = Detection(classId: 0, label: "person", confidence: 0.9, box: Rect(x1: 0, y1: 0, x2: 10, y2: 10))
        let dog = Detection(classId: 16, label: "dog", confidence: 0.8, box: Rect(x1: 20, y1: 0, x2: 30, y2: 10))
        let counter = CounterInterpreter()
        var s = InterpreterRunSummary(interpreter: "counter")
        for dets in [[person], [person, person, dog], [person]] {
            s.add(counter.interpret(InterpreterFrame(detections: dets, width: 100, height: 100)))
        }
        #expect(s.sentence == "peak 2× person, 1× dog")
        var crossings = LineCrossings()
        for y in stride(from: 10.0, through: 90, by: 10) {
            crossings.update([.init(trackId: 1, label: "person", box: Rect(cx: 50, cy: y, w: 4, h: 4))], width: 100, height: 100, time: 0)
        }
        s.set(crossings: crossings.current)
        #expect(s.sentence == "peak 2× person, 1× dog · 1 crossed the line")

        // Tennis contact: consecutive contact frames are one contact.
        let racket = Detection(classId: 38, label: "tennis racket", confidence: 0.9, box: Rect(x1: 0, y1: 0, x2: 40, y2: 40))
        let ball = Detection(classId: 32, label: "sports ball", confidence: 0.9, box: Rect(x1: 10, y1: 10, x2: 20, y2: 20))
        let tennis = TennisContactInterpreter()
        var t = InterpreterRunSummary(interpreter: "tennis-contact")
        for dets in [[racket, ball], [racket, ball], [racket], [racket, ball]] {
            t.add(tennis.interpret(InterpreterFrame(detections: dets, width: 100, height: 100)))
        }
        #expect(t.sentence == "2 contacts")
        var v = InterpreterRunSummary(interpreter: "tennis-contact")
        v.add(video: tennis.interpretVideo([[racket, ball], [racket, ball], [racket], [racket, ball]].map {
            InterpreterFrame(detections: $0, width: 100, height: 100) }))
        #expect(v.sentence == t.sentence, "a video's summary and the frame-by-frame tally agree")

        // Poker: the best hand seen, whatever came after it.
        let card = { (label: String, x: Double) in Detection(classId: 0, label: label, confidence: 0.9, box: Rect(x1: x, y1: 0, x2: x + 5, y2: 5)) }
        let poker = PokerHandInterpreter()
        var p = InterpreterRunSummary(interpreter: "poker")
        p.add(poker.interpret(InterpreterFrame(detections: [card("KH", 0), card("KS", 10), card("KD", 20), card("3C", 30), card("3H", 40)], width: 100, height: 100)))
        p.add(poker.interpret(InterpreterFrame(detections: [card("2H", 0), card("7S", 10)], width: 100, height: 100)))
        #expect(p.sentence?.hasPrefix("best hand: Full house") == true)
        #expect(InterpreterRunSummary(interpreter: "poker").sentence == "no cards")
        #expect(InterpreterRunSummary(interpreter: "passthrough").sentence == nil)
    }
}
