import Foundation
import SwingCore

/// A person the detector found in a frame, in image pixels: where their hips are and how big their body is.
///
/// The size is BlazePose's own body measure — twice the distance from the hip centre to the detector's
/// body-size point, about the person's standing height — so a candidate and a tracked pose compare directly.
package struct PersonCandidate: Sendable, Equatable {
    /// The detector's confidence in [0, 1].
    package var score: Double
    /// The hip centre, pixels.
    package var center: Point2
    /// The hip centre as fractions of the picture's width and height (from the top-left).
    package var position: Point2
    /// The body size, pixels (about the standing height).
    package var size: Double
    /// The body size as a fraction of the picture's height: the same person in any size of the same picture.
    package var sizeFraction: Double
    /// Whether the hips are inside the picture (a camera operator cut by the bottom edge has theirs below it).
    package var hipsInFrame: Bool
    /// Whether the whole body is in the picture: the hips, and below them the legs down to
    /// ``feetBelowHips`` of the body's size (a line judge or ball kid at the bottom edge, legs cut off, has
    /// theirs in it but not their feet, and their height above the ground cannot be measured).
    package var wholeInFrame: Bool
    /// How far the body leans from upright, radians in [0, π]: the angle between the hips → head direction
    /// the detector sees and straight up in the picture.
    package var tilt: Double
    /// The detection the landmark region comes from (normalised to the image).
    let detection: PersonDetection

    /// A person standing upright with their hips at `center` and body `size` (pixels) in a `width × height`
    /// picture, as the detector would report them.
    package init(score: Double, center: Point2, size: Double, width: Int, height: Int) {
        let w = Double(max(width, 1)), h = Double(max(height, 1))
        let hips = Point2(x: center.x / w, y: center.y / h), head = Point2(x: center.x / w, y: (center.y - size / 2) / h)
        self.init(PersonDetection(score: score, xmin: hips.x - 0.1 * size / w, ymin: head.y, width: 0.2 * size / w,
                                  height: size / 2 / h, keypoints: [hips, head, hips, head]), width: width, height: height)
    }

    init(_ d: PersonDetection, width: Int, height: Int) {
        let w = Double(width), h = Double(height)
        let c = Point2(x: d.keypoints[0].x * w, y: d.keypoints[0].y * h)
        let s = Point2(x: d.keypoints[1].x * w, y: d.keypoints[1].y * h)
        score = d.score
        center = c
        position = Point2(x: d.keypoints[0].x, y: d.keypoints[0].y)
        size = 2 * ((s.x - c.x) * (s.x - c.x) + (s.y - c.y) * (s.y - c.y)).squareRoot()
        sizeFraction = size / max(h, 1)
        hipsInFrame = c.x >= 0 && c.x <= w && c.y >= 0 && c.y <= h
        wholeInFrame = hipsInFrame && c.y + Self.feetBelowHips * size <= h
        tilt = abs(atan2(s.x - c.x, c.y - s.y))
        detection = d
    }
}

extension PersonCandidate {
    /// Hips closer than this fraction of the bigger body are the same person seen twice.
    package static let sameBody = 0.25
    /// How far below the hips the feet are at least, as a fraction of the body's size (they are about half of it
    /// below when standing; a lunge or a knee bend brings them up).
    package static let feetBelowHips = 0.35

    /// `candidates` (most confident first) without the less confident of any two whose hips are within
    /// ``sameBody`` of the bigger one's size: the detector's face boxes of one person seen whole in one tile
    /// and cut by another's edge need not overlap, yet they are one body, and the cut view's guess of its size
    /// is the wrong one.
    static func onePerBody(_ candidates: [PersonCandidate]) -> [PersonCandidate] {
        var kept: [PersonCandidate] = []
        for c in candidates.sorted(by: { $0.score > $1.score }) where !kept.contains(where: { $0.isSameBody(as: c) }) {
            kept.append(c)
        }
        return kept
    }

    /// Whether `other` is this person seen again: hips within ``sameBody`` of the bigger one's size.
    package func isSameBody(as other: PersonCandidate) -> Bool {
        let dx = other.center.x - center.x, dy = other.center.y - center.y
        let reach = Self.sameBody * max(size, other.size)
        return dx * dx + dy * dy < reach * reach
    }
}

/// Whom a ``PoseTracker`` follows when it first finds people in a window.
package enum PersonChoice: Sendable, Equatable {
    /// The detector's most confident person (MediaPipe's choice).
    case mostConfident
    /// The biggest person whose whole body is in the picture (``PersonCandidate/wholeInFrame``): the one nearest
    /// the camera, as a player filmed from behind the baseline is. Someone cut by the picture's edge only when
    /// nobody is whole: then the biggest whose hips are in it, else the biggest.
    case largest
    /// The person whose hips are nearest this point, as fractions of the picture's width and height from its
    /// top-left (the player said where they are; the same point in any size of picture).
    case nearest(Point2)
    /// The person the player pointed at (``PlayerMark``). Here, in any frame, the one whose hips are nearest the
    /// mark's point; the analysis first looks at the mark's moment when it has one, finds who was there and
    /// follows ``like(position:size:)`` that person instead.
    case marked(PlayerMark)
    /// The person most like one seen before: of the people whose body size (a fraction of the picture's height,
    /// ``PersonCandidate/sizeFraction``) is within ``likeSizeRatio`` of `size`, the one whose hips are nearest
    /// `position` (fractions of the picture); when nobody is of about that size, the one nearest `position`.
    /// A partner walking through the place the player stood, much nearer or further from the camera, is not taken
    /// for them.
    case like(position: Point2, size: Double)

    /// How much bigger or smaller than the person pointed at someone may look and still be taken for them in
    /// another window (``like(position:size:)``): a player running from the baseline to the net grows about 1.5
    /// times in a phone's picture filmed from behind.
    package static let likeSizeRatio = 2.0

    /// The player's own mark, when this choice is one (``marked(_:)``).
    package var mark: PlayerMark? {
        if case .marked(let m) = self { return m }
        return nil
    }

    /// Whether the player said where they are (so every person in view is looked for, however small).
    package var isPointed: Bool {
        switch self {
        case .nearest, .marked, .like: true
        case .mostConfident, .largest: false
        }
    }

    /// The chosen candidate's index in `candidates` (nil when there are none).
    package func pick(_ candidates: [PersonCandidate]) -> Int? {
        guard !candidates.isEmpty else { return nil }
        func nearest(_ p: Point2, among indices: [Int]) -> Int? {
            func d(_ i: Int) -> Double {
                let c = candidates[i].position
                return (c.x - p.x) * (c.x - p.x) + (c.y - p.y) * (c.y - p.y)
            }
            return indices.min { d($0) < d($1) }
        }
        switch self {
        case .mostConfident:
            return candidates.indices.max { candidates[$0].score < candidates[$1].score }
        case .largest:
            let whole = candidates.indices.filter { candidates[$0].wholeInFrame }
            let hips = candidates.indices.filter { candidates[$0].hipsInFrame }
            let among = !whole.isEmpty ? whole : !hips.isEmpty ? hips : Array(candidates.indices)
            return among.max { candidates[$0].size < candidates[$1].size }
        case .nearest(let p):
            return nearest(p, among: Array(candidates.indices))
        case .marked(let mark):
            return nearest(mark.point, among: Array(candidates.indices))
        case .like(let p, let size):
            let alike = candidates.indices.filter {
                let ratio = candidates[$0].sizeFraction / max(size, 1e-9)
                return ratio <= Self.likeSizeRatio && ratio >= 1 / Self.likeSizeRatio
            }
            return nearest(p, among: alike.isEmpty ? Array(candidates.indices) : alike)
        }
    }
}

/// Who a tracker is following: where the person's hips were, how big they were and when they were last seen.
/// A pose or a detection is the same person only if it is where that person can have got to since and of about
/// that size, so a track never jumps to someone walking past, waiting at the back or sitting in the umpire's
/// chair — two people side by side are half a body apart, further than anyone moves in a frame.
struct PersonIdentity: Sendable, Equatable {
    var center: Point2
    var size: Double
    /// Seconds (the frames' clock).
    var time: Double

    /// How fast a person's hips move across the picture, in body sizes a second: a player sprinting at 7 m/s
    /// covers about four of their heights a second.
    static let maxSpeed = 4.0
    /// The least step admitted, in body sizes: the landmarks' own jitter from frame to frame.
    static let minStep = 0.1
    /// The most a step may be however long the person was lost, in body sizes.
    static let maxStep = 2.0
    /// How much bigger or smaller the body may look from one frame to the next, and how much more that may
    /// grow a second (a player running at the camera from 5 m looks 1.4 times bigger a second later).
    static let sizeRatio = 1.3, sizeRatioPerSecond = 1.0, maxSizeRatio = 2.0

    /// Whether a person at `center` of `size` at `time` can be this one.
    func admits(center c: Point2, size s: Double, at t: Double) -> Bool {
        guard s.isFinite, s > 0, size > 0, c.x.isFinite, c.y.isFinite else { return false }
        let dt = max(0, t - time)
        let bound = min(Self.maxSizeRatio, Self.sizeRatio + Self.sizeRatioPerSecond * dt)
        let ratio = s / size
        guard ratio <= bound, ratio >= 1 / bound else { return false }
        let dx = c.x - center.x, dy = c.y - center.y
        let reach = min(Self.maxStep, max(Self.minStep, Self.maxSpeed * dt)) * max(size, s)
        return dx * dx + dy * dy <= reach * reach
    }

    /// The candidate this person most likely is at `time` (the nearest one admitted), or nil.
    func match(_ candidates: [PersonCandidate], at t: Double) -> Int? {
        let admitted = candidates.indices.filter { admits(center: candidates[$0].center, size: candidates[$0].size, at: t) }
        return admitted.min { distance(candidates[$0].center) < distance(candidates[$1].center) }
    }

    private func distance(_ c: Point2) -> Double { (c.x - center.x) * (c.x - center.x) + (c.y - center.y) * (c.y - center.y) }
}

/// The square tiles the detector also looks at for people too small for the whole frame: BlazePose's detector
/// sees the frame shrunk to 224 pixels, where a player 150 px tall in 720p is 26 px and has no face to find.
enum DetectionTiles {
    /// A tile's side as a fraction of the frame's shorter side.
    static let fraction = 1.0 / 3
    /// Neighbouring tiles overlap by this fraction of a side, so a person cut by one tile's edge is whole in the next.
    static let overlap = 0.25

    /// A tile's side for finding a person about `personSize` pixels tall whom the whole frame missed (cut by an edge,
    /// or too small in the frame shrunk to the detector's input): one and a half times their size, so they fit in a
    /// tile with the overlap to spare, at most the frame's shorter side. `nil` when that is under one and a half
    /// times the small-person tiles' side (``fraction``): too close to them to save runs, so they are the search.
    static func fittingSide(personSize: Double, width: Int, height: Int) -> Double? {
        let short = Double(min(width, height))
        let side = min(short, (1.5 * personSize).rounded())
        guard personSize.isFinite, short >= 2, side >= 1.5 * (short * fraction).rounded() else { return nil }
        return side
    }

    /// The one small-person tile (``fraction`` of the shorter side) centred on `point` (pixels), moved inside the
    /// frame where it would cross an edge; `nil` for a frame too small for tiles or a point that is not finite.
    static func around(_ point: Point2, width: Int, height: Int) -> PoseRegion? {
        let short = Double(min(width, height))
        guard short >= 2, point.x.isFinite, point.y.isFinite else { return nil }
        let side = min(short, max(1, (short * fraction).rounded()))
        let x = min(max(point.x, side / 2), Double(width) - side / 2), y = min(max(point.y, side / 2), Double(height) - side / 2)
        return PoseRegion(centerX: x, centerY: y, width: side, height: side, rotation: 0)
    }

    /// The tiles covering a `width × height` frame (pixels, unrotated squares), row by row: of `side` pixels, by
    /// default ``fraction`` of the shorter side.
    static func regions(width: Int, height: Int, side requested: Double? = nil) -> [PoseRegion] {
        let short = Double(min(width, height))
        guard short >= 2 else { return [] }
        let side = min(short, requested ?? (short * fraction).rounded())
        guard side >= 1 else { return [] }
        let step = side * (1 - overlap)
        func starts(_ length: Double) -> [Double] {
            guard length > side else { return [0] }
            var s: [Double] = []
            var x = 0.0
            while x + side < length { s.append(x); x += step }
            s.append(length - side)
            return s
        }
        var out: [PoseRegion] = []
        for y in starts(Double(height)) {
            for x in starts(Double(width)) {
                out.append(PoseRegion(centerX: x + side / 2, centerY: y + side / 2, width: side, height: side, rotation: 0))
            }
        }
        return out
    }
}

