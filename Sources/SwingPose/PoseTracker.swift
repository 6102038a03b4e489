import SwingCore

/// BlazePose over a video, as MediaPipe's legacy pose graph tracks: the region for frame *n + 1*
/// comes from frame *n*'s two auxiliary landmarks (hip centre and body-size point), and the detector
/// runs only when there is no region or the pose flag drops below ``PoseOptions/minPoseScore``.
/// Landmarks are One-Euro smoothed unless ``PoseOptions/smoothing`` is off.
///
/// Once it has found someone the tracker follows that person (``PersonIdentity``): a pose whose hips jump
/// further than a person moves in the time since, or whose body suddenly looks much bigger or smaller, is someone else,
/// and when it re-detects only a person near where its own was found counts. Until ``reset()`` it never
/// switches people; a frame without its person has no pose. Whom it follows first is ``choice``.
///
/// Not thread-safe: feed frames in time order from one task.
package final class PoseTracker {
    package let estimator: PoseEstimator
    private var nextRegion: PoseRegion?
    private var landmarkFilter: PointListFilter
    private var worldFilter: PointListFilter
    private var auxFilter: PointListFilter
    private var smoothedVisibility: [Double] = []
    private var frameCounter = 0
    private var identity: PersonIdentity?
    /// Frames processed since `identity` was last seen.
    private var framesSinceSeen = 0
    /// Whom to follow when the tracker first finds people (default: MediaPipe's most confident person).
    package var choice: PersonChoice = .mostConfident
    /// Also look for people in tiles of the frame (``PoseEstimator/detectPeople(in:tiles:)``) when nobody
    /// found in the whole frame (or the person followed) is at least ``smallPersonFraction`` of its longer side.
    package var findSmallPeople = false
    /// Below this body size, as a fraction of the frame's longer side, people are also looked for in tiles: the
    /// detector sees the whole frame shrunk to 224 pixels, where such a person is under 40 px tall. (A player
    /// filmed from behind the baseline in 1080p is 400–600 px, found in the whole frame; a broadcast's near
    /// player is 100–200 px of 1280.)
    package static let smallPersonFraction = 0.18
    /// Follow only people leaning less than ``maxTilt`` from upright: players stand, and what the detector finds
    /// upside down or lying is a shadow, a bag or a line on the court.
    package var uprightOnly = false
    /// The most an upright person leans, radians (60°: more than a lunge or a slide).
    package static let maxTilt = Double.pi / 3
    /// A detection at least this sure is taken at the size the whole frame gives it.
    package static let confidentScore = 0.7
    /// People smaller than this fraction of the frame's shorter side are not followed: their landmarks are too
    /// coarse to measure (0, the default, follows anyone found). See ``largestTooSmall``.
    package var minimumPersonFraction = 0.0
    /// The biggest person found but refused as smaller than ``minimumPersonFraction`` since the last reset
    /// (body size in pixels), so a caller can say how far the camera is; `nil` when nobody was refused.
    package private(set) var largestTooSmall: Double?
    /// The people in view when the tracker first found someone after the last reset (big enough to follow), and
    /// the one of them it follows: a caller can pose the others too and keep whoever it was looking for.
    package private(set) var peopleAtStart: [PersonCandidate] = []
    /// The person chosen from ``peopleAtStart``; `nil` until someone is found.
    package private(set) var followed: PersonCandidate?
    /// Frames processed since the last reset.
    package private(set) var framesProcessed = 0
    /// Frames on which the detector ran since the last reset.
    package private(set) var detectorRuns = 0
    /// Frames whose tiles were searched for small people since the last reset (each costs a detector run per tile:
    /// 28 in 720p).
    package private(set) var tiledSearches = 0
    /// Detector runs on tiles since the last reset (a search's tiles: 28 small ones in 720p, or fewer of a pointed
    /// person's size, or the one around a small pointed person).
    package private(set) var tileRuns = 0
    /// A pointed person's own tiles (of their size, or for someone small the one tile around where they were) did
    /// not show them since the last reset: the small tiles alone are searched from then on, so a person who is not
    /// there costs those 1 to 6 or so runs once, not on every frame.
    private var fittedTilesMissed = false
    /// Time spent inside ONNX Runtime since the last reset (the rest of ``process(frame:time:index:)``
    /// is our pre/post-processing).
    package private(set) var inferenceTime = StageTime()
    /// Wall-clock seconds of ``inferenceTime``.
    package var inferenceSeconds: Double { inferenceTime.wall }

    /// - Parameter estimator: the loaded models and options (its options' smoothing settings apply).
    package init(estimator: PoseEstimator) {
        self.estimator = estimator
        landmarkFilter = PointListFilter(estimator.options.landmarkFilter)
        worldFilter = PointListFilter(estimator.options.worldFilter)
        auxFilter = PointListFilter(estimator.options.auxiliaryFilter)
    }

    /// Forgets the tracked person and the filters' history (call before a new clip or after a seek).
    package func reset() {
        nextRegion = nil
        identity = nil
        framesSinceSeen = 0
        largestTooSmall = nil
        peopleAtStart = []
        followed = nil
        resetFilters()
        framesProcessed = 0; detectorRuns = 0; tiledSearches = 0; tileRuns = 0; fittedTilesMissed = false; frameCounter = 0; inferenceTime = StageTime()
    }

    private func resetFilters() {
        landmarkFilter.reset(); worldFilter.reset(); auxFilter.reset(); smoothedVisibility = []
    }

    /// Estimates the pose in the next video frame.
    /// - Parameters:
    ///   - frame: the decoded frame.
    ///   - time: its presentation time in seconds (must increase for smoothing to apply).
    ///   - index: its frame index (default: a counter of processed frames).
    /// - Returns: the pose, or `nil` when nobody is found.
    /// - Throws: `InferenceError` if ONNX Runtime fails.
    package func process(frame: ImageBuffer, time: Double, index: Int? = nil) throws -> PoseFrame? {
        let idx = index ?? frameCounter
        frameCounter += 1
        framesProcessed += 1
        var pose: ProjectedPose?
        var ranDetector = false
        if let region = nextRegion {
            pose = try estimator.landmarks(in: frame, region: region, inference: &inferenceTime)
            // A region that slid onto someone else: the hips jumped or the body changed size in one frame.
            if let p = pose, let identity, !identity.admits(center: p.center, size: p.bodySize, at: time) { pose = nil }
        }
        if pose == nil {
            ranDetector = true
            detectorRuns += 1
            let (found, candidates) = try find(in: frame, time: time)
            if let small = found.filter({ $0.size < minimumSize(frame) }).map(\.size).max() {
                largestTooSmall = max(largestTooSmall ?? 0, small)
            }
            let chosen = identity.map { $0.match(candidates, at: time) }
                ?? choice.pick(candidates)
            if let chosen {
                if followed == nil { peopleAtStart = candidates; followed = candidates[chosen] }
                let region = estimator.regionFromDetection(candidates[chosen].detection, width: frame.width, height: frame.height)
                pose = try estimator.landmarks(in: frame, region: region, inference: &inferenceTime)
                if let p = pose, let identity, !identity.admits(center: p.center, size: p.bodySize, at: time) {
                    pose = nil
                }
            }
        }
        guard var p = pose else {
            nextRegion = nil
            framesSinceSeen += 1
            resetFilters()
            return nil
        }
        identity = PersonIdentity(center: p.center, size: p.bodySize, time: time)
        framesSinceSeen = 0
        if estimator.options.smoothing { smooth(&p, time: time) }
        nextRegion = RegionOfInterest.fromAlignment(center: p.points[33], scalePoint: p.points[34],
                                                    scale: estimator.options.regionScale)
        return estimator.frame(from: p, index: idx, time: time, detectorRan: ranDetector)
    }

    /// The people in `frame` (everyone found, and those the tracker may follow: big enough, and upright when asked).
    /// The whole frame first; with ``findSmallPeople`` also its tiles when the whole frame shows nobody the tracker
    /// could take — no one of ``smallPersonFraction`` or more seen with ``confidentScore`` (looked for in tiles on the
    /// first four frames, then on every fourth until someone is found: a picture with nobody in it costs a quarter
    /// of the tiles; not on the first frame when its whole picture shows nobody to follow), or not the person it follows when that person is small (in tiles on the first four frames
    /// they are lost, then on every fourth; a big one is looked for in the whole frame) — and when choosing the
    /// person nearest a point (on the first four frames, then on every fourth until someone is followed), unless
    /// that is someone of a known size big enough for the whole frame (``PersonChoice/like(position:size:)``) whom
    /// the whole frame shows near that point.
    private func find(in frame: ImageBuffer, time: Double) throws -> (found: [PersonCandidate], followable: [PersonCandidate]) {
        func followable(_ people: [PersonCandidate]) -> [PersonCandidate] { self.followable(people, in: frame) }
        let whole = try estimator.detectPeople(in: frame, tiles: false, inference: &inferenceTime)
        let wholeFollowable = followable(whole)
        guard findSmallPeople else { return (whole, wholeFollowable) }
        if let identity {
            guard !Self.seenWhole(size: identity.size, in: frame), identity.match(wholeFollowable, at: time) == nil, framesSinceSeen < 4 || framesSinceSeen % 4 == 0 else {
                return (whole, wholeFollowable)
            }
        } else if case .like(let position, let size) = choice, Self.seenWhole(size: size * Double(frame.height), in: frame),
                  wholeFollowable.contains(where: { Self.isLike($0, position: position, size: size, in: frame) }) {
            // Pointed at someone big enough for the whole frame, and seen there: tiles would only add people much smaller.
            return (whole, wholeFollowable)
        } else if choice.isPointed {
            // Not found on the first four frames: the tiles on every fourth from then on, as for anyone not found (a
            // small person pointed at who is not there cost 28 detector runs on every frame).
            guard framesProcessed <= 4 || framesProcessed % 4 == 0 else { return (whole, wholeFollowable) }
            // The player said where they are: look for everyone, however small, before choosing. Someone of a known
            // size the whole frame missed (cut by an edge, or small in the shrunken frame) is looked for first in
            // tiles of about their size: 6 detector runs in 720p for a player of 380 px, where the small-person
            // tiles take 28; the small tiles follow only when those do not show them (and alone from then on).
            // Someone small of a known size is looked for first in the one small tile centred where they were.
            if case .like(let position, let size) = choice, !fittedTilesMissed {
                let fitted: [PersonCandidate]
                tiledSearches += 1
                if let side = DetectionTiles.fittingSide(personSize: size * Double(frame.height), width: frame.width, height: frame.height) {
                    tileRuns += DetectionTiles.regions(width: frame.width, height: frame.height, side: side).count
                    fitted = try estimator.detectPeople(in: frame, tileSide: side, inference: &inferenceTime)
                } else {
                    tileRuns += 1
                    let point = Point2(x: position.x * Double(frame.width), y: position.y * Double(frame.height))
                    fitted = try estimator.detectPeople(in: frame, around: point, inference: &inferenceTime)
                }
                let fittedFollowable = followable(fitted)
                if fittedFollowable.contains(where: { Self.isLike($0, position: position, size: size, in: frame) }) {
                    return (fitted, fittedFollowable)
                }
                fittedTilesMissed = true
            }
        } else {
            // Someone big enough for the whole frame, and seen there with confidence (a small person seen whole
            // is often a faint, wrongly sized guess): no need to look closer.
            if wholeFollowable.contains(where: { Self.seenWhole(size: $0.size, in: frame) && $0.score >= Self.confidentScore }) {
                return (whole, wholeFollowable)
            }
            // Nobody found yet: the tiles on the first four frames, then on every fourth; but not on the very first
            // frame when its whole picture shows nobody to follow (the detector missing a big player for a frame is
            // more common than a player too small for it, and the next frame's whole picture costs a 29th of the
            // tiles; a small player is found one frame later, a second before any contact).
            guard framesProcessed <= 4 || framesProcessed % 4 == 0, framesProcessed > 1 || !wholeFollowable.isEmpty else {
                return (whole, wholeFollowable)
            }
        }
        tiledSearches += 1
        tileRuns += DetectionTiles.regions(width: frame.width, height: frame.height).count
        let tiled = try estimator.detectPeople(in: frame, tiles: true, inference: &inferenceTime)
        return (tiled, followable(tiled))
    }

    /// Whether `person` can be the one pointed at by ``PersonChoice/like(position:size:)``: of about that size
    /// (``PersonChoice/likeSizeRatio``) with their hips within one body of that point.
    static func isLike(_ person: PersonCandidate, position: Point2, size: Double, in frame: ImageBuffer) -> Bool {
        let ratio = person.sizeFraction / max(size, 1e-9)
        let w = Double(frame.width), h = Double(frame.height), body = size * h
        let dx = (person.position.x - position.x) * w, dy = (person.position.y - position.y) * h
        return ratio <= PersonChoice.likeSizeRatio && ratio >= 1 / PersonChoice.likeSizeRatio && dx * dx + dy * dy <= body * body
    }

    /// The people of `people` the tracker may follow in `frame`: at least ``minimumPersonFraction`` of its shorter
    /// side, and leaning less than ``maxTilt`` when ``uprightOnly``.
    package func followable(_ people: [PersonCandidate], in frame: ImageBuffer) -> [PersonCandidate] {
        let minimum = minimumSize(frame)
        return people.filter { $0.size >= minimum && (!uprightOnly || $0.tilt <= Self.maxTilt) }
    }

    /// Whether a person of `size` pixels is big enough in `frame` to be found in the whole frame rather than its
    /// tiles (``smallPersonFraction`` of its longer side).
    package static func seenWhole(size: Double, in frame: ImageBuffer) -> Bool {
        size >= smallPersonFraction * Double(max(frame.width, frame.height))
    }

    /// The smallest person followed in `frame`, pixels (``minimumPersonFraction`` of its shorter side).
    private func minimumSize(_ frame: ImageBuffer) -> Double {
        minimumPersonFraction * Double(min(frame.width, frame.height))
    }

    /// MediaPipe's `pose_landmark_filtering`: visibility low-pass, One Euro on pixels (scaled by the
    /// body size from the auxiliary landmarks), on world metres, and on the auxiliary landmarks.
    private func smooth(_ p: inout ProjectedPose, time: Double) {
        let w = Double(p.width)
        let a = p.points[33], b = p.points[34]
        let dx = b.x - a.x, dy = b.y - a.y
        let objectScale = (dx * dx + dy * dy).squareRoot() * 2
        let alpha = estimator.options.visibilityAlpha
        if smoothedVisibility.count == 35 {
            for i in 0..<35 { smoothedVisibility[i] += alpha * (p.visibility[i] - smoothedVisibility[i]) }
        } else {
            smoothedVisibility = p.visibility
        }
        p.visibility = smoothedVisibility
        let body = (0..<33).map { (p.points[$0].x, p.points[$0].y, p.z[$0] * w) }
        let fb = landmarkFilter.apply(body, time: time, objectScale: objectScale)
        let aux = (33..<35).map { (p.points[$0].x, p.points[$0].y, p.z[$0] * w) }
        let fa = auxFilter.apply(aux, time: time, objectScale: objectScale)
        for (i, v) in (fb + fa).enumerated() {
            p.points[i] = Point2(x: v.0, y: v.1); p.z[i] = v.2 / w
        }
        let fw = worldFilter.apply(p.world.map { ($0.x, $0.y, $0.z) }, time: time, objectScale: 1)
        p.world = fw.map { Vec3(x: $0.0, y: $0.1, z: $0.2) }
    }
}
