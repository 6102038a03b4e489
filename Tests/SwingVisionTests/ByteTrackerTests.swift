import Foundation
import SwingCore
import SwingTestSupport
import Testing
@testable import SwingVision

/// ByteTracker on classes of input: seeded scenes of objects moving at constant velocity with noise, missed and
/// low-confidence detections, objects entering, leaving, crossing; degenerate frames; and Ultralytics' own
/// tracker on the same detections (Fixtures/tracking, made by tools/bytetrack_reference.py).
@Suite struct ByteTrackerTests {
    // MARK: - A scene generator with ground truth

    /// An object moving at constant velocity (pixels per frame), visible on frames `start..<end` (0-based).
    struct Mover {
        var start: Int, end: Int
        var x: Double, y: Double, vx: Double, vy: Double, w: Double, h: Double
        var classId = 0

        func centre(_ f: Int) -> Point2 { Point2(x: x + vx * Double(f - start), y: y + vy * Double(f - start)) }
        func box(_ f: Int) -> Rect { let c = centre(f); return Rect(cx: c.x, cy: c.y, w: w, h: h) }
    }

    /// Detections of `movers` with Gaussian noise σ on the centre and 2 % on the size; each visible object is
    /// missed with probability `miss` (or on the frames `gaps` lists) and detected at a low confidence
    /// (0.12–0.24) with probability `low`, else at 0.5–0.95. Returns each frame's detections with the object
    /// each came from, best first as a predictor orders them.
    static func frames(_ movers: [Mover], count: Int, noise: Double, miss: Double = 0, low: Double = 0,
                       gaps: [Int: Range<Int>] = [:], lowFrames: [Int: Range<Int>] = [:],
                       rng: inout SplitMix64) -> [[(detection: Detection, object: Int)]] {
        (0..<count).map { f in
            var out: [(detection: Detection, object: Int)] = []
            for (k, m) in movers.enumerated() where (m.start..<m.end).contains(f) {
                if gaps[k]?.contains(f) == true { continue }
                if rng.uniform() < miss { continue }
                let c = m.centre(f)
                let cx = c.x + noise * rng.gaussian(), cy = c.y + noise * rng.gaussian()
                let w = m.w * (1 + 0.02 * rng.gaussian()), h = m.h * (1 + 0.02 * rng.gaussian())
                let isLow = lowFrames[k]?.contains(f) == true || rng.uniform() < low
                let conf = isLow ? rng.uniform(0.12, 0.24) : rng.uniform(0.5, 0.95)
                out.append((Detection(classId: m.classId, label: "c\(m.classId)", confidence: conf,
                                      box: Rect(cx: cx, cy: cy, w: w, h: h)), k))
            }
            return out.sorted { $0.detection.confidence > $1.detection.confidence }
        }
    }

    /// Identity bookkeeping over a run (MOT's IDSW): a *switch* is an object reported under an id other than the
    /// one it was last reported under; a *transfer* is an id reported for a second object.
    struct Ledger {
        var lastId: [Int: Int] = [:]
        var owner: [Int: Int] = [:]
        var switches = 0
        var transfers = 0
        var reported = 0

        mutating func record(_ tracked: [TrackedDetection], objects: [Int]) {
            for t in tracked {
                let object = objects[t.detectionIndex]
                reported += 1
                if let last = lastId[object], last != t.trackId { switches += 1 }
                lastId[object] = t.trackId
                if let o = owner[t.trackId], o != object { transfers += 1 } else { owner[t.trackId] = object }
            }
        }
    }

    /// Runs a tracker over generated frames and keeps the ledger (and every frame's output).
    static func run(_ frames: [[(detection: Detection, object: Int)]], tracker: inout ByteTracker,
                    fps: Double = 30) -> (ledger: Ledger, outputs: [[TrackedDetection]]) {
        var ledger = Ledger()
        var outputs: [[TrackedDetection]] = []
        for (f, frame) in frames.enumerated() {
            let out = tracker.update(frame.map(\.detection), time: Double(f) / fps)
            ledger.record(out, objects: frame.map(\.object))
            outputs.append(out)
        }
        return (ledger, outputs)
    }

    // MARK: - Identity

    /// Objects in horizontal lanes more than 2× the tallest box apart: a track's box never overlaps another
    /// object's detection (IoU 0, cost 1 > 0.8), so a switch could only come from losing its own object. The
    /// generator keeps that from happening: speeds up to 0.12 × width per frame and σ = 1.5 px on boxes ≥ 40 px
    /// wide keep the prediction within IoU ≈ 0.6 of the detection, which even the unconfirmed association
    /// (IoU × confidence > 0.3 at confidence ≥ 0.5) accepts. Misses (10 %) are short gaps. Bound: zero switches.
    @Test(arguments: 0..<12)
    func separatedMoversNeverSwitchIds(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 1000)
        let n = rng.int(2...10)
        var movers: [Mover] = []
        var laneY = 60.0
        for _ in 0..<n {
            let w = rng.uniform(40, 90), h = w * rng.uniform(1.2, 2.2)
            laneY += h / 2
            let speed = rng.uniform(0.02, 0.12) * w * (rng.uniform() < 0.5 ? -1 : 1)
            movers.append(Mover(start: rng.int(0...20), end: rng.int(150...200), x: rng.uniform(200, 1000), y: laneY,
                                vx: speed, vy: rng.uniform(-0.01, 0.01) * w, w: w, h: h))
            laneY += h / 2 + 2.2 * 180   // > 2 × the tallest possible box (90 × 2.2 = 198 … kept apart by 396+)
        }
        let frames = Self.frames(movers, count: 200, noise: 1.5, miss: 0.1, rng: &rng)
        var tracker = ByteTracker()
        let (ledger, _) = Self.run(frames, tracker: &tracker)
        #expect(ledger.switches == 0, "seed \(seed): \(ledger.switches) identity switches")
        #expect(ledger.transfers == 0, "seed \(seed): \(ledger.transfers) ids moved to another object")
        #expect(Set(ledger.lastId.keys) == Set(0..<n), "every object is reported")
        #expect(Set(ledger.lastId.values).count == n, "one id per object")
    }

    /// A gap of g missed frames, with g up to the buffer, is bridged (the lost track is predicted forward and
    /// found again under its id); a longer gap retires the track and the object comes back under a new id.
    /// The object moves ≤ 3 px/frame: after 15 frames the filter's velocity error is a fraction of a pixel per
    /// frame, so 30 frames of prediction stay well inside the 60 px box.
    @Test(arguments: [(30.0, 1), (30.0, 10), (30.0, 30), (30.0, 31), (30.0, 45), (60.0, 60), (60.0, 61), (10.0, 10), (10.0, 11)])
    func gapsUpToTheBufferKeepTheIdLongerOnesDoNot(fps: Double, gap: Int) {
        var rng = SplitMix64(seed: UInt64(gap) * 31 + UInt64(fps))
        let mover = Mover(start: 0, end: 200, x: 200, y: 300, vx: rng.uniform(-3, 3), vy: rng.uniform(-1, 1), w: 60, h: 120)
        let frames = Self.frames([mover], count: 15 + gap + 10, noise: 1, gaps: [0: 15..<(15 + gap)], rng: &rng)
        var tracker = ByteTracker(frameRate: fps)
        let maxLost = Int(fps / 30 * 30)
        #expect(tracker.maxFramesLost == maxLost)
        let (ledger, outputs) = Self.run(frames, tracker: &tracker, fps: fps)
        let before = outputs[14].map(\.trackId), back = outputs[15 + gap].map(\.trackId)
        #expect(before.count == 1)
        if gap <= maxLost {
            #expect(back == before, "gap \(gap) at \(fps) fps")
            #expect(ledger.switches == 0)
        } else {
            // A new track, confirmed (and reported) from its second sighting on.
            #expect(back.isEmpty)
            let after = outputs[15 + gap + 1].map(\.trackId)
            #expect(after.count == 1 && after != before, "gap \(gap) at \(fps) fps: the retired id came back")
            #expect(ledger.switches == 1)
        }
    }

    /// Random misses anywhere (25 % of frames) in scenes of separated objects: every gap in these runs is far
    /// shorter than the buffer, so no object changes id.
    @Test(arguments: 0..<6)
    func randomMissesKeepIds(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 77)
        let movers = (0..<5).map { k in
            Mover(start: 0, end: 150, x: rng.uniform(300, 900), y: 100 + Double(k) * 300, vx: rng.uniform(-3, 3),
                  vy: rng.uniform(-0.5, 0.5), w: 50, h: 100)
        }
        let frames = Self.frames(movers, count: 150, noise: 1, miss: 0.25, rng: &rng)
        var tracker = ByteTracker()
        let (ledger, _) = Self.run(frames, tracker: &tracker)
        #expect(ledger.switches == 0 && ledger.transfers == 0, "seed \(seed): \(ledger)")
    }

    /// Two objects whose boxes overlap as they pass (lanes 0.3–0.8 box heights apart, IoU up to 1/3 at the
    /// closest) at different velocities: the constant-velocity prediction puts each track on its own object, and the
    /// other object's detection is at least 0.3 h off, worth far less. Bound: zero switches.
    @Test(arguments: 0..<12)
    func crossingObjectsKeepTheirIds(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 500)
        let h = rng.uniform(80, 140), w = h * rng.uniform(0.4, 0.6)
        let offset = rng.uniform(0.3, 0.8) * h
        let va = rng.uniform(3, 7), vb = -rng.uniform(2, 6)
        // Both reach x = 640 at frame 40.
        let a = Mover(start: 0, end: 100, x: 640 - 40 * va, y: 360, vx: va, vy: 0, w: w, h: h)
        let b = Mover(start: 0, end: 100, x: 640 - 40 * vb, y: 360 + offset, vx: vb, vy: 0, w: w * 1.1, h: h * 1.1)
        let frames = Self.frames([a, b], count: 90, noise: 1, miss: 0.03, rng: &rng)
        var tracker = ByteTracker()
        let (ledger, _) = Self.run(frames, tracker: &tracker)
        #expect(ledger.switches == 0 && ledger.transfers == 0, "seed \(seed): \(ledger)")
    }

    /// Objects in the same lane pass straight through each other. Around the frame where their boxes coincide the
    /// two detections are interchangeable (IoU alone cannot tell them apart), so the frames where the two true
    /// boxes overlap with IoU above 0.5 are not scored; before and after, each object keeps its id — the
    /// constant-velocity prediction carries each track through.
    @Test(arguments: 0..<12)
    func headOnCrossingKeepsIdsAcrossTheMeeting(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 900)
        let h = rng.uniform(80, 140), w = h * 0.5
        let va = rng.uniform(3, 7), vb = -rng.uniform(2, 6)
        let a = Mover(start: 0, end: 100, x: 640 - 40 * va, y: 360, vx: va, vy: 0, w: w, h: h)
        let b = Mover(start: 0, end: 100, x: 640 - 40 * vb, y: 362, vx: vb, vy: 0, w: w, h: h)
        let frames = Self.frames([a, b], count: 90, noise: 1, rng: &rng)
        var tracker = ByteTracker()
        var ledger = Ledger()
        for (f, frame) in frames.enumerated() {
            let out = tracker.update(frame.map(\.detection), time: Double(f) / 30)
            if a.box(f).iou(b.box(f)) <= 0.5 { ledger.record(out, objects: frame.map(\.object)) }
        }
        #expect(ledger.switches == 0 && ledger.transfers == 0, "seed \(seed): \(ledger)")
    }

    // MARK: - The second association, births and deaths

    /// An object tracked for 20 frames then seen only at low confidence (0.12–0.24, under the 0.25 high threshold)
    /// for 1–8 frames: the second association keeps it under its id (IoU with the prediction > 0.5). With the
    /// second association turned off (low threshold raised to 0.25) those frames report nothing.
    @Test(arguments: 0..<8)
    func lowConfidenceFramesAreRecoveredBySecondAssociation(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 4242)
        let lowRun = rng.int(1...8)
        let mover = Mover(start: 0, end: 60, x: 400, y: 300, vx: rng.uniform(-3, 3), vy: rng.uniform(-2, 2), w: 50, h: 110)
        let frames = Self.frames([mover], count: 40, noise: 1, lowFrames: [0: 20..<(20 + lowRun)], rng: &rng)
        var tracker = ByteTracker()
        let (ledger, outputs) = Self.run(frames, tracker: &tracker)
        let id = outputs[19].first?.trackId
        #expect(id != nil)
        for f in 20..<(20 + lowRun) {
            #expect(outputs[f].map(\.trackId) == [id].compactMap { $0 }, "frame \(f): low-confidence detection not tracked")
            #expect((outputs[f].first?.detection.confidence ?? 1) < 0.25)
        }
        #expect(ledger.switches == 0)

        var config = ByteTracker.Configuration()
        config.trackLowThreshold = 0.25
        var without = ByteTracker(configuration: config)
        let (_, plain) = Self.run(frames, tracker: &without)
        for f in 20..<(20 + lowRun) { #expect(plain[f].isEmpty) }
        #expect(plain[20 + lowRun].map(\.trackId) == [id].compactMap { $0 }, "found again after the low run")
    }

    /// Objects entering at random frames get ids never used before, are reported from their second consecutive
    /// sighting (first frame: at once), and keep them.
    @Test(arguments: 0..<6)
    func newObjectsGetNewIds(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 31337)
        let movers = (0..<8).map { k in
            Mover(start: k == 0 ? 0 : rng.int(1...80), end: 120, x: rng.uniform(300, 900), y: 80 + Double(k) * 250,
                  vx: rng.uniform(-3, 3), vy: 0, w: 50, h: 100)
        }
        let frames = Self.frames(movers, count: 120, noise: 1, rng: &rng)
        var tracker = ByteTracker()
        let (ledger, outputs) = Self.run(frames, tracker: &tracker)
        #expect(ledger.switches == 0 && ledger.transfers == 0)
        #expect(Set(ledger.lastId.values).count == movers.count)
        for (k, m) in movers.enumerated() {
            let firstReported = outputs.indices.first { f in outputs[f].contains { frames[f][$0.detectionIndex].object == k } }
            #expect(firstReported == (m.start == 0 ? 0 : m.start + 1), "object \(k) entering at \(m.start)")
        }
        // Ids are handed out in order of birth.
        let order = movers.indices.sorted { (movers[$0].start, $0) < (movers[$1].start, $1) }
        let ids = order.compactMap { ledger.lastId[$0] }
        #expect(ids == ids.sorted())
    }

    /// An object that leaves is kept as a lost track for exactly `maxFramesLost` frames, then retired.
    @Test(arguments: [30.0, 60.0, 15.0])
    func leavingObjectsAreRetiredAfterTheBuffer(fps: Double) {
        var rng = SplitMix64(seed: 5)
        let mover = Mover(start: 0, end: 20, x: 400, y: 300, vx: 2, vy: 0, w: 50, h: 100)
        let stay = Mover(start: 0, end: 400, x: 900, y: 300, vx: -1, vy: 0, w: 50, h: 100)
        var tracker = ByteTracker(frameRate: fps)
        let frames = Self.frames([mover, stay], count: 20 + tracker.maxFramesLost + 3, noise: 1, rng: &rng)
        var leaverId: Int?
        for (f, frame) in frames.enumerated() {
            let out = tracker.update(frame.map(\.detection), time: Double(f) / fps)
            if f == 19 { leaverId = out.first { frame[$0.detectionIndex].object == 0 }?.trackId }
            let held = tracker.tracks.first { $0.id == leaverId }
            // Last seen on frame 19; lost from frame 20; still held while frame − 19 ≤ maxFramesLost.
            if f >= 20 && f - 19 <= tracker.maxFramesLost {
                #expect(held?.state == .lost, "frame \(f)")
            } else if f - 19 > tracker.maxFramesLost {
                #expect(held == nil, "frame \(f): not retired")
            }
        }
        #expect(leaverId != nil)
        #expect(tracker.tracks.count == 1, "the staying object's track only")
    }

    // MARK: - Degenerate frames

    @Test func emptyFramesReturnNothingAndLoseTracks() {
        var tracker = ByteTracker()
        #expect(tracker.update([], time: 0).isEmpty)
        let d = Detection(classId: 0, label: "a", confidence: 0.9, box: Rect(x1: 10, y1: 10, x2: 50, y2: 90))
        #expect(tracker.update([d], time: 0.1).isEmpty)   // born on frame 2: unconfirmed, not reported
        #expect(tracker.update([d], time: 0.2).map(\.trackId) == [1])
        #expect(tracker.update([], time: 0.3).isEmpty)
        #expect(tracker.tracks.map(\.state) == [.lost])
        #expect(tracker.update([d], time: 0.4).map(\.trackId) == [1])
        tracker.reset()
        #expect(tracker.tracks.isEmpty && tracker.frameCount == 0)
        #expect(tracker.update([d], time: 0).map(\.trackId) == [1])
    }

    /// Boxes with NaN, ±∞, huge, zero or negative sizes, and NaN confidences are ignored: the valid detections
    /// around them are tracked exactly as if the bad ones were not there.
    @Test(arguments: 0..<4)
    func unusableBoxesAreIgnored(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 17)
        let movers = (0..<4).map { k in
            Mover(start: 0, end: 60, x: 300 + 150 * Double(k), y: 300, vx: 1, vy: 0.5, w: 40, h: 90)
        }
        let frames = Self.frames(movers, count: 60, noise: 1, miss: 0.05, rng: &rng)
        let nan = Double.nan, inf = Double.infinity
        let bad: [Detection] = [
            Rect(x1: nan, y1: 0, x2: 10, y2: 10), Rect(x1: 0, y1: 0, x2: inf, y2: 10), Rect(x1: -inf, y1: -inf, x2: inf, y2: inf),
            Rect(x1: 0, y1: 0, x2: 1e300, y2: 1e300), Rect(x1: 50, y1: 50, x2: 50, y2: 90), Rect(x1: 90, y1: 90, x2: 10, y2: 10),
            Rect(x1: Double.leastNonzeroMagnitude * 2024, y1: 0, x2: Double.leastNonzeroMagnitude * 4048, y2: Double.leastNonzeroMagnitude * 2024),
        ].map { Detection(classId: 0, label: "bad", confidence: 0.9, box: $0) }
            + [Detection(classId: 0, label: "bad", confidence: nan, box: Rect(x1: 300, y1: 300, x2: 340, y2: 390))]
        var clean = ByteTracker(), dirty = ByteTracker()
        for (f, frame) in frames.enumerated() {
            let good = frame.map(\.detection)
            var mixed: [Detection] = []
            var goodIndex: [Int] = []   // mixed index → good index (−1 for bad)
            var pending = bad
            let turn = rng.int(0...(bad.count - 1))
            pending = Array(pending[turn...] + pending[..<turn])
            for (i, d) in good.enumerated() {
                if let b = pending.popLast(), rng.uniform() < 0.5 { mixed.append(b); goodIndex.append(-1) }
                mixed.append(d); goodIndex.append(i)
            }
            mixed += pending; goodIndex += Array(repeating: -1, count: pending.count)
            let expected = clean.update(good, time: Double(f) / 30)
            let got = dirty.update(mixed, time: Double(f) / 30)
            #expect(got.allSatisfy { goodIndex[$0.detectionIndex] >= 0 }, "frame \(f): a bad box was tracked")
            #expect(got.map { goodIndex[$0.detectionIndex] } == expected.map(\.detectionIndex))
            #expect(got.map(\.trackId) == expected.map(\.trackId))
            #expect(got.allSatisfy { [$0.trackBox.x1, $0.trackBox.y1, $0.trackBox.x2, $0.trackBox.y2].allSatisfy(\.isFinite) })
        }
    }

    /// 1000 objects in one frame (a 40 × 25 grid of 20 × 40 px boxes, 32 × 56 px apart, moving 1 px per frame):
    /// every one is tracked and keeps its id, and a frame takes well under a second — the overlap matrix is 10⁶
    /// pairs and the assignment sees ~1000 pairs below the limit.
    @Test func aThousandDetectionsInOneFrame() {
        var rng = SplitMix64(seed: 1000)
        let grid = (0..<1000).map { i in
            Mover(start: 0, end: 10, x: 20 + Double(i % 40) * 32, y: 30 + Double(i / 40) * 56, vx: 1, vy: 0.5, w: 20, h: 40)
        }
        let frames = Self.frames(grid, count: 4, noise: 0.5, rng: &rng)
        var tracker = ByteTracker()
        var ledger = Ledger()
        var slowest = 0.0
        for (f, frame) in frames.enumerated() {
            let start = DispatchTime.now().uptimeNanoseconds
            let out = tracker.update(frame.map(\.detection), time: Double(f) / 30)
            slowest = max(slowest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            #expect(out.count == 1000)
            ledger.record(out, objects: frame.map(\.object))
        }
        #expect(ledger.switches == 0 && ledger.transfers == 0)
        #expect(slowest < 1.0, "slowest frame \(slowest) s")

        // A dense, overlapping crowd: 1000 random boxes in 640 × 640, all overlapping many others.
        var crowd = ByteTracker()
        let boxes = (0..<1000).map { _ in
            Detection(classId: 0, label: "p", confidence: rng.uniform(0.05, 1),
                      box: Rect(cx: rng.uniform(0, 640), cy: rng.uniform(0, 640), w: rng.uniform(10, 60), h: rng.uniform(10, 60)))
        }
        let start = DispatchTime.now().uptimeNanoseconds
        for f in 0..<3 {
            let moved = boxes.map { d in
                var d = d; d.box = Rect(x1: d.box.x1 + Double(f), y1: d.box.y1, x2: d.box.x2 + Double(f), y2: d.box.y2); return d
            }
            _ = crowd.update(moved, time: Double(f) / 30)
        }
        let dense = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        #expect(dense < 3.0, "three dense frames took \(dense) s")
    }

    // MARK: - The filter and the assignment

    /// Noise-free constant velocity: the filter's box converges on the truth (within 0.5 px after 30 frames).
    @Test func kalmanConvergesOnConstantVelocity() throws {
        let m = Mover(start: 0, end: 100, x: 100, y: 200, vx: 4, vy: -1.5, w: 40, h: 80)
        var tracker = ByteTracker()
        var last: TrackedDetection?
        for f in 0..<40 {
            let d = Detection(classId: 0, label: "a", confidence: 0.9, box: m.box(f))
            last = tracker.update([d], time: Double(f) / 30).first
        }
        let t = try #require(last)
        let truth = m.box(39)
        for (a, b) in zip([t.trackBox.x1, t.trackBox.y1, t.trackBox.x2, t.trackBox.y2], [truth.x1, truth.y1, truth.x2, truth.y2]) {
            #expect(abs(a - b) < 0.5)
        }
        #expect(t.trail.count == 30)
        #expect(abs((t.trail.last?.x ?? 0) - truth.center.x) < 0.5)
    }

    /// The assignment against brute force on random small problems: the same least total of (cost − limit).
    @Test func assignmentIsOptimalAgainstBruteForce() {
        var rng = SplitMix64(seed: 99)
        for _ in 0..<400 {
            let rows = rng.int(0...5), columns = rng.int(0...5)
            let costs = (0..<(rows * columns)).map { _ in rng.uniform(0, 1.2) }
            let limit = 0.8
            let result = LinearAssignment.solve(rows: rows, columns: columns, costs: costs, limit: limit)
            // Feasibility: a partial matching of pairs below the limit, and the leftovers listed.
            #expect(Set(result.matches.map(\.row)).count == result.matches.count)
            #expect(Set(result.matches.map(\.column)).count == result.matches.count)
            #expect(result.matches.allSatisfy { costs[$0.row * columns + $0.column] < limit })
            #expect(result.unmatchedRows.count + result.matches.count == rows)
            #expect(result.unmatchedColumns.count + result.matches.count == columns)
            let got = result.matches.map { costs[$0.row * columns + $0.column] - limit }.reduce(0, +)
            var best = 0.0
            func search(_ r: Int, _ used: Set<Int>, _ total: Double) {
                if r == rows { best = min(best, total); return }
                search(r + 1, used, total)
                for c in 0..<columns where !used.contains(c) && costs[r * columns + c] < limit {
                    search(r + 1, used.union([c]), total + costs[r * columns + c] - limit)
                }
            }
            search(0, [], 0)
            #expect(abs(got - best) < 1e-9, "\(rows)×\(columns): \(got) vs optimum \(best)")
        }
    }

    // MARK: - Drawing

    /// `Annotator.annotate(tracks:)` draws each track's trail under its box and tags the box "#id label conf":
    /// the tag is wider than the plain one by "#12 ", and the trail's pixels take the class colour.
    @Test func annotatedTracksShowTheirIdAndTrail() {
        let grey = ImageBuffer(width: 200, height: 120, fill: (128, 128, 128))
        let d = Detection(classId: 2, label: "ball", confidence: 0.9, box: Rect(x1: 150, y1: 40, x2: 190, y2: 80))
        let trail = (0..<10).map { Point2(x: 20 + Double($0) * 14, y: 100) }
        let tracked = TrackedDetection(detection: d, trackId: 12, detectionIndex: 0, trackBox: d.box, trail: trail)
        let out = Annotator.annotate(tracks: [tracked], on: grey)
        let plain = Annotator.annotate(YOLOResult(width: 200, height: 120, detections: [d]), on: grey)
        func px(_ img: ImageBuffer, _ x: Int, _ y: Int) -> RGB {
            let i = (y * img.width + x) * 3
            return RGB(img.pixels[i], img.pixels[i + 1], img.pixels[i + 2])
        }
        #expect(px(out, 80, 100) == RGB.forClass(2))          // on the trail, far from the box
        #expect(px(plain, 80, 100) == RGB(128, 128, 128))
        #expect(px(out, 150, 60) == RGB.forClass(2))          // the box's left edge, as without tracking
        // The tag sits above the box (y 40) and is clamped to the image's right edge: a wider one starts further left.
        let tagRow = 34
        let firstTagged = { (img: ImageBuffer) in (0..<200).first { px(img, $0, tagRow) != RGB(128, 128, 128) } ?? 200 }
        #expect(firstTagged(out) < firstTagged(plain))
    }

    // MARK: - Against Ultralytics

    struct Reference: Decodable {
        struct Case: Decodable {
            var name: String
            /// Per frame: [x1, y1, x2, y2, confidence, class].
            var frames: [[[Double]]]
            /// Per frame: [detection index, track id, x1, y1, x2, y2] (Ultralytics' Kalman box).
            var tracks: [[[Double]]]
        }
        var versions: [String: String]
        var cases: [Case]
    }

    static func reference() throws -> Reference {
        let bundled = Bundle.module.resourceURL?.appendingPathComponent("Fixtures/tracking/bytetrack_reference.json")
        let url = bundled.flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/tracking/bytetrack_reference.json")
        return try JSONDecoder().decode(Reference.self, from: Data(contentsOf: url))
    }

    /// Ultralytics 8.4.190's BYTETracker on the same detections (5 scenes, 460 frames): the same track id for
    /// the same detection on every frame, and the same Kalman box within 0.006 px — the fixture rounds boxes to
    /// 0.01 px (±0.005) and Ultralytics returns float32 (±1280 × 2⁻²⁴ ≈ 8e-5 px).
    @Test func matchesUltralyticsFrameByFrame() throws {
        let reference = try Self.reference()
        #expect(reference.versions["ultralytics"] == "8.4.190")
        for c in reference.cases {
            var tracker = ByteTracker()
            var idMismatches = 0, worstBox = 0.0
            for (f, frame) in c.frames.enumerated() {
                let detections = frame.map { v in
                    Detection(classId: Int(v[5]), label: "", confidence: v[4], box: Rect(x1: v[0], y1: v[1], x2: v[2], y2: v[3]))
                }
                let got = tracker.update(detections, time: Double(f) / 30)
                let want = c.tracks[f]
                if got.map({ [$0.detectionIndex, $0.trackId] }) != want.map({ [Int($0[0]), Int($0[1])] }) {
                    idMismatches += 1
                    if idMismatches <= 3 {
                        Issue.record("\(c.name) frame \(f): got \(got.map { ($0.detectionIndex, $0.trackId) }), Ultralytics \(want.map { (Int($0[0]), Int($0[1])) })")
                    }
                    continue
                }
                for (g, w) in zip(got, want) {
                    let b = g.trackBox
                    worstBox = max(worstBox, abs(b.x1 - w[2]), abs(b.y1 - w[3]), abs(b.x2 - w[4]), abs(b.y2 - w[5]))
                }
            }
            #expect(idMismatches == 0, "\(c.name): \(idMismatches) of \(c.frames.count) frames differ")
            #expect(worstBox < 0.006, "\(c.name): Kalman box off by \(worstBox) px")
        }
    }
}
