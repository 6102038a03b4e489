import SwingCore

/// Multi-object tracking by ByteTrack's association, as Ultralytics implements it (`BYTETracker`,
/// `ultralytics/trackers/byte_tracker.py`): feed each frame's detections in order and get back those that
/// belong to a confirmed track, each with a ``TrackedDetection/trackId`` that stays the same while the object
/// is followed.
///
/// Each frame:
/// 1. Detections with an unusable box (NaN, ±∞, beyond ±``coordinateLimit`` px, a side under ``minimumSide``)
///    or confidence are ignored. The rest split into *high* (confidence ≥ ``Configuration/trackHighThreshold``)
///    and *low* (above ``Configuration/trackLowThreshold``, below the high threshold).
/// 2. Every confirmed track, tracked or lost, is moved one frame ahead by its constant-velocity Kalman filter on
///    (cx, cy, aspect, h) (a lost track's height velocity is zeroed first).
/// 3. First association: those tracks against the high detections, cost `1 − IoU × confidence`
///    (``Configuration/fuseScore``), pairs below ``Configuration/matchThreshold``, optimal assignment
///    (``LinearAssignment``). A matched lost track is found again under its old id.
/// 4. Second association: the tracked (not lost) tracks left over against the low detections, cost `1 − IoU`,
///    pairs below ``Configuration/lowMatchThreshold``. Tracks still unmatched become lost.
/// 5. Unconfirmed tracks (born last frame) against the high detections left over
///    (``Configuration/unconfirmedMatchThreshold``): matched ones are confirmed, the others dropped.
/// 6. Each high detection still left with confidence ≥ ``Configuration/newTrackThreshold`` starts a track —
///    confirmed at once on the first frame, otherwise on its next match.
/// 7. Lost tracks unmatched for more than ``maxFramesLost`` frames are retired; a tracked and a lost track that
///    overlap with IoU above `1 − duplicateThreshold` are one object, and the younger is dropped.
///
/// Track ids count from 1 per tracker; like Ultralytics, an id is spent when a track is born, so a track dropped
/// unconfirmed leaves a gap. Tracks do not depend on the class: a track takes the class of each detection it is
/// matched with.
package struct ByteTracker: Sendable {
    /// ByteTrack's thresholds, with Ultralytics' defaults (`ultralytics/cfg/trackers/bytetrack.yaml`).
    package struct Configuration: Sendable, Equatable, Codable {
        /// A detection at or above this confidence takes part in the first association and may start a track
        /// (Ultralytics `track_high_thresh`, 0.25).
        package var trackHighThreshold: Double = 0.25
        /// A detection above this confidence (and below ``trackHighThreshold``) can only extend a track, in the
        /// second association; at or below it a detection is ignored (`track_low_thresh`, 0.1).
        package var trackLowThreshold: Double = 0.1
        /// An unmatched high detection starts a new track only at or above this confidence (`new_track_thresh`, 0.25).
        package var newTrackThreshold: Double = 0.25
        /// Frames a lost track is kept at 30 fps (`track_buffer`, 30): scaled by frame rate / 30, see ``ByteTracker/maxFramesLost``.
        package var trackBuffer: Int = 30
        /// First association: a pair matches only when its cost is below this (`match_thresh`, 0.8); with
        /// ``fuseScore`` the cost is `1 − IoU × confidence`, so 0.8 needs IoU × confidence > 0.2.
        package var matchThreshold: Double = 0.8
        /// Weigh the first and the unconfirmed association's IoU by the detection's confidence (`fuse_score`, true).
        package var fuseScore: Bool = true
        /// Second association (low detections): pairs need `1 − IoU` below this, i.e. IoU > 0.5
        /// (a constant in Ultralytics' code).
        package var lowMatchThreshold: Double = 0.5
        /// Unconfirmed tracks: cost limit of their association (0.7, a constant in Ultralytics' code).
        package var unconfirmedMatchThreshold: Double = 0.7
        /// A tracked and a lost track whose `1 − IoU` is below this are duplicates (0.15, Ultralytics' constant).
        package var duplicateThreshold: Double = 0.15
        /// Kalman process and measurement noise of the position, per frame, as a fraction of the box height (1/20).
        package var positionNoise: Double = 1.0 / 20
        /// Kalman process noise of the velocity, per frame, as a fraction of the box height (1/160).
        package var velocityNoise: Double = 1.0 / 160
        /// Centres kept per track for ``TrackedDetection/trail`` (30).
        package var trailLength: Int = 30

        package init() {}
    }

    /// Boxes with a coordinate beyond ± this many pixels are ignored, as non-finite ones are: the filter squares
    /// sizes, and nothing a camera sees is that large.
    package static let coordinateLimit = 1e6
    /// Boxes with a side shorter than this many pixels are ignored (Ultralytics drops only zero sizes): the
    /// filter's variances scale with the square of the height and would underflow to zero.
    package static let minimumSide = 1e-6

    package let configuration: Configuration
    /// Frames per second of the sequence given to ``update(_:time:)`` (after any stride).
    package let frameRate: Double
    /// Frames a lost track survives unmatched: `Int(frameRate / 30 × trackBuffer)`, truncated, as ByteTrack and
    /// earlier Ultralytics releases compute it (30 at 30 fps; the buffer is about one second at any rate; Ultralytics
    /// 8.4.190 keeps `trackBuffer` frames whatever the rate). A track missed for this many frames in a row
    /// can still be found again; one missed for more is retired and a later sighting gets a new id.
    package let maxFramesLost: Int
    /// Frames given to ``update(_:time:)`` so far.
    package private(set) var frameCount = 0

    private var tracked: [Record] = []
    private var lost: [Record] = []
    private var nextId = 1
    private let filter: KalmanBoxFilter

    /// - Parameters:
    ///   - configuration: Thresholds; the defaults are Ultralytics'.
    ///   - frameRate: Frames per second of the sequence you will pass (a video's rate divided by any stride);
    ///     a value that is not a positive finite number is taken as 30.
    package init(configuration: Configuration = Configuration(), frameRate: Double = 30) {
        self.configuration = configuration
        let rate = frameRate.isFinite && frameRate > 0 ? frameRate : 30
        self.frameRate = rate
        let frames = rate / 30 * Double(configuration.trackBuffer)
        self.maxFramesLost = frames.isFinite ? Int(max(0, min(frames, Double(Int32.max)))) : 0
        self.filter = KalmanBoxFilter(positionWeight: configuration.positionNoise, velocityWeight: configuration.velocityNoise)
    }

    /// The tracks held now: tracked ones (confirmed or not) first, then lost ones.
    package var tracks: [Track] { tracked.map(\.track) + lost.map(\.track) }

    /// Forgets every track and restarts ids and frame numbers, as for a new video.
    package mutating func reset() {
        tracked = []; lost = []; nextId = 1; frameCount = 0
    }

    /// Takes one frame's detections and returns those that belong to a confirmed track.
    /// - Parameters:
    ///   - detections: The frame's detections, boxes in pixels (the order is the caller's; indices refer to it).
    ///   - time: The frame's time in seconds; kept in ``Track/lastTime`` (the buffer counts frames, not seconds).
    /// - Returns: The tracked detections in the order of `detections`; a detection that no confirmed track took
    ///   (ignored, low and unclaimed, or a new object's first sighting after the first frame) is left out.
    /// - Complexity: O(T·D) for the overlaps of T tracks and D detections, plus the assignment
    ///   (``LinearAssignment``), which is near-linear when objects are apart.
    package mutating func update(_ detections: [Detection], time: Double) -> [TrackedDetection] {
        frameCount += 1
        let frame = frameCount
        let c = configuration
        var high: [Candidate] = [], low: [Candidate] = []
        for (i, d) in detections.enumerated() {
            guard let candidate = Candidate(index: i, detection: d) else { continue }
            if d.confidence >= c.trackHighThreshold {
                high.append(candidate)
            } else if d.confidence > c.trackLowThreshold {
                low.append(candidate)
            }
        }

        var unconfirmed = tracked.filter { !$0.isActivated }
        var confirmed = tracked.filter(\.isActivated)
        var stillLost = lost
        for i in confirmed.indices { filter.predict(&confirmed[i].kalman) }
        for i in stillLost.indices {
            stillLost[i].kalman.mean[7] = 0
            filter.predict(&stillLost[i].kalman)
        }
        // A state that overflowed cannot be matched or drawn; drop it rather than carry NaNs.
        confirmed.removeAll { !$0.kalman.isFinite }
        stillLost.removeAll { !$0.kalman.isFinite }
        var pool = confirmed + stillLost
        let lostStart = confirmed.count

        // First association: tracked + lost tracks against high detections.
        let first = Self.assign(pool, high, fuse: c.fuseScore ? high.map(\.detection.confidence) : nil, limit: c.matchThreshold)
        var refound: [Int] = []
        for m in first.matches {
            let wasLost = pool[m.row].state == .lost
            apply(high[m.column], to: &pool[m.row], frame: frame, time: time, reactivating: wasLost)
            if wasLost { refound.append(m.row) }
        }

        // Second association: tracked tracks left over against low detections, plain IoU.
        let leftTracked = first.unmatchedRows.filter { pool[$0].state == .tracked }
        let second = Self.assign(leftTracked.map { pool[$0] }, low, fuse: nil, limit: c.lowMatchThreshold)
        for m in second.matches {
            apply(low[m.column], to: &pool[leftTracked[m.row]], frame: frame, time: time, reactivating: false)
        }
        var newlyLost: [Int] = []
        for r in second.unmatchedRows {
            pool[leftTracked[r]].state = .lost
            newlyLost.append(leftTracked[r])
        }

        // Unconfirmed tracks against the high detections left over.
        let leftHigh = first.unmatchedColumns.map { high[$0] }
        let third = Self.assign(unconfirmed, leftHigh, fuse: c.fuseScore ? leftHigh.map(\.detection.confidence) : nil,
                                limit: c.unconfirmedMatchThreshold)
        for m in third.matches {
            apply(leftHigh[m.column], to: &unconfirmed[m.row], frame: frame, time: time, reactivating: false)
        }
        let droppedUnconfirmed = Set(third.unmatchedRows.map { unconfirmed[$0].id })

        // New tracks, in the order of the detections.
        var born: [Record] = []
        for column in third.unmatchedColumns where leftHigh[column].detection.confidence >= c.newTrackThreshold {
            born.append(start(leftHigh[column], frame: frame, time: time))
        }

        // Retire lost tracks past the buffer (those found again this frame have lastFrame == frame).
        var retired = Set<Int>()
        for i in lostStart..<pool.count where pool[i].state == .lost && frame - pool[i].lastFrame > maxFramesLost {
            retired.insert(pool[i].id)
        }

        // Rebuild the lists in Ultralytics' order: surviving tracked tracks as they were, the new ones, the found ones.
        var current: [Int: Record] = [:]
        for r in pool { current[r.id] = r }
        for r in unconfirmed { current[r.id] = r }
        var nextTracked: [Record] = []
        for old in tracked {
            guard let r = current[old.id], r.state == .tracked, !droppedUnconfirmed.contains(r.id) else { continue }
            nextTracked.append(r)
        }
        nextTracked += born
        nextTracked += refound.map { pool[$0] }
        var nextLost: [Record] = []
        for i in lostStart..<pool.count where pool[i].state == .lost && !retired.contains(pool[i].id) {
            nextLost.append(pool[i])
        }
        nextLost += newlyLost.map { pool[$0] }
        (tracked, lost) = removeDuplicates(nextTracked, nextLost)

        return tracked.filter(\.isActivated)
            .map { TrackedDetection(detection: $0.detection, trackId: $0.id, detectionIndex: $0.detectionIndex,
                                    trackBox: $0.kalman.box, trail: $0.trail) }
            .sorted { $0.detectionIndex < $1.detectionIndex }
    }

    // MARK: - Steps

    /// A usable detection with its box's Kalman measurement.
    private struct Candidate {
        var index: Int
        var detection: Detection
        var measurement: [Double]

        init?(index: Int, detection d: Detection) {
            let b = d.box
            let limit = ByteTracker.coordinateLimit
            guard d.confidence.isFinite,
                  [b.x1, b.y1, b.x2, b.y2].allSatisfy({ $0.isFinite && abs($0) <= limit }),
                  b.x2 - b.x1 >= ByteTracker.minimumSide, b.y2 - b.y1 >= ByteTracker.minimumSide else { return nil }
            self.index = index
            self.detection = d
            self.measurement = KalmanBoxFilter.measurement(b)
        }
    }

    /// One track's state between frames.
    private struct Record: Sendable {
        var id: Int
        var kalman: KalmanBoxFilter.State
        var state: Track.State
        var isActivated: Bool
        var detection: Detection
        var detectionIndex: Int
        var trackletLength: Int
        var firstFrame: Int
        var lastFrame: Int
        var firstTime: Double
        var lastTime: Double
        var trail: [Point2]

        var track: Track {
            Track(id: id, state: state, isConfirmed: isActivated, classId: detection.classId, label: detection.label,
                  confidence: detection.confidence, box: kalman.box, trail: trail, firstFrame: firstFrame,
                  lastFrame: lastFrame, firstTime: firstTime, lastTime: lastTime)
        }
    }

    /// Ultralytics' `STrack.update` / `re_activate`: correct the filter with the detection and take its class.
    private func apply(_ c: Candidate, to r: inout Record, frame: Int, time: Double, reactivating: Bool) {
        filter.update(&r.kalman, with: c.measurement)
        r.state = .tracked
        r.isActivated = true
        r.trackletLength = reactivating ? 0 : r.trackletLength + 1
        r.lastFrame = frame
        r.lastTime = time
        r.detection = c.detection
        r.detectionIndex = c.index
        appendTrail(&r)
    }

    /// Ultralytics' `STrack.activate`: a new track with the next id, confirmed at once only on the first frame.
    private mutating func start(_ c: Candidate, frame: Int, time: Double) -> Record {
        defer { nextId += 1 }
        var r = Record(id: nextId, kalman: filter.initiate(c.measurement), state: .tracked, isActivated: frame == 1,
                       detection: c.detection, detectionIndex: c.index, trackletLength: 0, firstFrame: frame,
                       lastFrame: frame, firstTime: time, lastTime: time, trail: [])
        appendTrail(&r)
        return r
    }

    private func appendTrail(_ r: inout Record) {
        let limit = max(configuration.trailLength, 0)
        guard limit > 0 else { r.trail = []; return }
        r.trail.append(Point2(x: r.kalman.mean[0], y: r.kalman.mean[1]))
        if r.trail.count > limit { r.trail.removeFirst(r.trail.count - limit) }
    }

    /// A tracked and a lost track on the same spot (`1 − IoU < duplicateThreshold`) are one object: the one
    /// followed for fewer frames goes (the tracked one on a tie), as Ultralytics' `remove_duplicate_stracks`.
    private func removeDuplicates(_ a: [Record], _ b: [Record]) -> ([Record], [Record]) {
        guard !a.isEmpty, !b.isEmpty else { return (a, b) }
        var dropA = Set<Int>(), dropB = Set<Int>()
        let boxesB = b.map(\.kalman.box)
        for (p, ta) in a.enumerated() {
            let boxA = ta.kalman.box
            for (q, tb) in b.enumerated() where 1 - Self.iou(boxA, boxesB[q]) < configuration.duplicateThreshold {
                if ta.lastFrame - ta.firstFrame > tb.lastFrame - tb.firstFrame { dropB.insert(q) } else { dropA.insert(p) }
            }
        }
        return (a.enumerated().filter { !dropA.contains($0.offset) }.map(\.element),
                b.enumerated().filter { !dropB.contains($0.offset) }.map(\.element))
    }

    /// Optimal matching of tracks (rows) to candidates (columns) on `1 − IoU` (times the candidate's confidence
    /// when `fuse` holds the confidences), pairs below `limit` only.
    private static func assign(_ tracks: [Record], _ candidates: [Candidate], fuse: [Double]?,
                               limit: Double) -> LinearAssignment.Result {
        guard !tracks.isEmpty, !candidates.isEmpty else {
            return LinearAssignment.solve(rows: tracks.count, columns: candidates.count, edges: [], limit: limit)
        }
        let boxes = candidates.map(\.detection.box)
        var edges: [LinearAssignment.Edge] = []
        for (r, t) in tracks.enumerated() {
            let tb = t.kalman.box
            for (j, b) in boxes.enumerated() {
                let overlap = iou(tb, b)
                let cost = 1 - overlap * (fuse?[j] ?? 1)
                if cost < limit { edges.append(.init(row: r, column: j, cost: cost)) }
            }
        }
        return LinearAssignment.solve(rows: tracks.count, columns: candidates.count, edges: edges, limit: limit)
    }

    /// IoU as Ultralytics' `bbox_ioa(iou=True)` computes it (ε = 1e-7 in the denominator).
    static func iou(_ a: Rect, _ b: Rect) -> Double {
        let iw = max(min(a.x2, b.x2) - max(a.x1, b.x1), 0)
        let ih = max(min(a.y2, b.y2) - max(a.y1, b.y1), 0)
        let inter = iw * ih
        let union = (a.x2 - a.x1) * (a.y2 - a.y1) + (b.x2 - b.x1) * (b.y2 - b.y1) - inter
        return inter / (union + 1e-7)
    }
}
