import SwingCore

/// Counts tracked objects crossing a line, as a people or car counter does: each track whose centre moves
/// from one side of the line to the other, across the segment itself, counts once per crossing, per label
/// and direction.
///
/// The line is given in normalised image coordinates (0…1, origin top-left) so it means the same place
/// on any frame size. Direction follows the line's orientation: walking from its start to its end,
/// `forward` is a crossing from the left side to the right side (for the default horizontal line drawn
/// left to right, that is moving **down** the picture), `backward` the other way.
///
/// A centre within ``margin`` of the line (a band a detector's jitter stays inside) keeps the side it came
/// from until it leaves the band on the other side, so an object that stops on the line and wobbles is one
/// crossing per real passage, not one per frame. A track that vanishes and comes back with a new id can
/// count again (the tracker decides identity).
package struct LineCrossings: Sendable {
    /// Where the counting line lies.
    package struct Line: Sendable, Codable, Equatable {
        /// Start and end, normalised (0…1, origin top-left).
        package var x1: Double, y1: Double, x2: Double, y2: Double

        /// A line from (`x1`, `y1`) to (`x2`, `y2`), normalised.
        package init(x1: Double, y1: Double, x2: Double, y2: Double) {
            self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
        }

        /// The default: a horizontal line across the middle of the picture, drawn left to right.
        package static let middle = Line(x1: 0, y1: 0.5, x2: 1, y2: 0.5)

        /// Whether the line is usable: finite coordinates within 0…1 and two distinct ends.
        package var isValid: Bool {
            let values = [x1, y1, x2, y2]
            return values.allSatisfy { $0.isFinite && (0...1).contains($0) } && (x1 != x2 || y1 != y2)
        }
    }

    /// Crossings of one label.
    package struct Count: Sendable, Codable, Equatable {
        /// Crossings from the line's left side to its right side (down, for the default line).
        package var forward: Int = 0
        /// Crossings the other way.
        package var backward: Int = 0
        package init(forward: Int = 0, backward: Int = 0) { self.forward = forward; self.backward = backward }
    }

    /// One crossing, as it happened.
    package struct Crossing: Sendable, Codable, Equatable {
        package var trackId: Int
        package var label: String
        /// `true` for ``Count/forward``.
        package var forward: Bool
        /// The frame time the crossing was seen (as passed to ``update(_:width:height:time:)``).
        package var time: Double
    }

    /// What the counter has seen so far: the line, totals per label, and the newest crossings.
    package struct Summary: Sendable, Codable, Equatable {
        package var line: Line
        package var counts: [String: Count]
        /// Every crossing counted so far.
        package var total: Int
        /// The crossings this summary reports: the newest frame's after ``LineCrossings/update(_:width:height:time:)``
        /// (empty on most frames), every crossing in a video's summary.
        package var crossings: [Crossing]
    }

    /// One object in one frame, as the counter needs it.
    package struct Object: Sendable, Equatable {
        package var trackId: Int
        package var label: String
        /// Its box, pixels, origin top-left (the centre is what crosses).
        package var box: Rect
        package init(trackId: Int, label: String, box: Rect) { self.trackId = trackId; self.label = label; self.box = box }
    }

    /// The line counted against.
    package let line: Line
    /// Half the width of the band around the line where a centre keeps its previous side, as a fraction of
    /// the picture (normalised distance from the line).
    package let margin: Double
    /// The default ``margin``: 1 % of the picture, several times the centre jitter of a steady detection.
    package static let defaultMargin = 0.01
    private var counts: [String: Count] = [:]
    private var total = 0
    /// Where each live track was last seen strictly off the line (normalised), and on which side (-1 or +1).
    private var last: [Int: (point: Point2, side: Int, frame: Int)] = [:]
    private var frame = 0
    /// Tracks not seen for this many updates are forgotten (the tracker has retired them by then).
    static let forgetAfter = 300

    /// A counter for `line` (checked with ``Line/isValid``; an invalid line falls back to ``Line/middle``).
    /// - Parameter margin: See ``margin``; a negative or non-finite value is taken as 0.
    package init(line: Line = .middle, margin: Double = LineCrossings.defaultMargin) {
        self.line = line.isValid ? line : .middle
        self.margin = margin.isFinite ? max(0, margin) : 0
    }

    /// Feeds one frame's tracked objects and returns the counter's state after it.
    /// - Parameters:
    ///   - objects: The frame's tracked objects (boxes in pixels).
    ///   - width: The frame's width in pixels.
    ///   - height: The frame's height in pixels.
    ///   - time: The frame's time in seconds.
    /// - Complexity: O(*n*) in the number of objects, amortised.
    @discardableResult
    package mutating func update(_ objects: [Object], width: Int, height: Int, time: Double) -> Summary {
        frame += 1
        var latest: [Crossing] = []
        guard width > 0, height > 0 else { return summary(latest) }
        let w = Double(width), h = Double(height)
        for o in objects {
            let c = o.box.center
            let p = Point2(x: c.x / w, y: c.y / h)
            guard p.x.isFinite, p.y.isFinite else { continue }
            let side = Self.side(of: p, line: line, margin: margin)
            guard side != 0 else {   // within the band: keep the side it came from
                if let before = last[o.trackId] { last[o.trackId] = (before.point, before.side, frame) }
                continue
            }
            let before = last[o.trackId]
            last[o.trackId] = (p, side, frame)
            guard let before, before.side != side, Self.crossesSegment(from: before.point, to: p, line: line) else { continue }
            let forward = side > 0
            var count = counts[o.label] ?? Count()
            if forward { count.forward += 1 } else { count.backward += 1 }
            counts[o.label] = count
            total += 1
            latest.append(Crossing(trackId: o.trackId, label: o.label, forward: forward, time: time))
        }
        if frame % 64 == 0 { last = last.filter { frame - $0.value.frame <= Self.forgetAfter } }
        return summary(latest)
    }

    /// Feeds one frame's tracked detections (see ``update(_:width:height:time:)``).
    @discardableResult
    package mutating func update(_ tracked: [TrackedDetection], width: Int, height: Int, time: Double) -> Summary {
        update(tracked.map { Object(trackId: $0.trackId, label: $0.detection.label, box: $0.detection.box) },
               width: width, height: height, time: time)
    }

    /// The counter's state without feeding a frame.
    package var current: Summary { summary([]) }

    private func summary(_ latest: [Crossing]) -> Summary {
        Summary(line: line, counts: counts, total: total, crossings: latest)
    }

    /// +1 right of the directed line, -1 left, 0 within `margin` of it (image coordinates: y grows
    /// downwards, so "right" of a left-to-right line is below it).
    static func side(of p: Point2, line l: Line, margin: Double) -> Int {
        let dx = l.x2 - l.x1, dy = l.y2 - l.y1
        let distance = (dx * (p.y - l.y1) - dy * (p.x - l.x1)) / (dx * dx + dy * dy).squareRoot()
        let band = max(margin, 1e-12)
        return distance > band ? 1 : (distance < -band ? -1 : 0)
    }

    /// Whether the move from `a` to `b` (on opposite sides) crossed the segment itself, not the line's
    /// extension beyond its ends: the crossing point, as a fraction along the counting line, is in 0…1.
    static func crossesSegment(from a: Point2, to b: Point2, line l: Line) -> Bool {
        let dx = l.x2 - l.x1, dy = l.y2 - l.y1
        let mx = b.x - a.x, my = b.y - a.y
        let denom = dx * my - dy * mx
        guard abs(denom) > 1e-15 else { return false }
        let u = ((a.x - l.x1) * my - (a.y - l.y1) * mx) / denom
        return u >= -1e-9 && u <= 1 + 1e-9
    }
}
