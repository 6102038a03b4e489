import SwingCore

/// A track's posed frames told apart by whom they show (issue #39, docs/analysis.md "Who is measured").
///
/// The pose stage poses each piece of a swing window on the person it chose there, so one track can hold
/// several people one after the other: on a broadcast clip, the piece around a squeak followed someone 60 px
/// tall across the picture while the next piece, 0.3 s later, followed the player — and the player's backswing,
/// read over the 0.6 s before the contact, read that person's arm. A shot is measured on its own person's frames
/// only.
///
/// Who a frame shows is read from the picture: its body (the box around its landmarks) continues a person
/// seen up to ``linkSeconds`` earlier when its hips lie within that person's size × (``stillSizes`` +
/// ``sizesPerSecond`` × the time between) of theirs — a player sprints about three body heights a second —
/// and neither body is more than ``sizeRatio`` times the other. Otherwise it is someone else. A frame
/// without picture landmarks (a track of world landmarks only) continues the latest person.
struct PosedPeople {
    /// Hips this many body sizes apart are one person whatever the time between (pose noise, a lunge).
    static let stillSizes = 0.75
    /// …plus this many body sizes per second between the frames: how far a player can run.
    static let sizesPerSecond = 4.0
    /// A body more than this many times the size of another is someone else.
    static let sizeRatio = 2.0
    /// A person not seen for longer than this is not looked for again, s.
    static let linkSeconds = 1.5

    /// Every posed frame, in time order.
    let all: [FrameMeasure]
    /// The person of each frame of ``all``.
    let person: [Int]
    private let frames: [Int: [FrameMeasure]]

    /// The posed frames of `track` (those with a body frame) for a player of `hand`, told apart.
    init(track: PoseTrack, hand: Hand) {
        let posed = track.samples.enumerated().compactMap { i, s in FrameMeasure(sample: s, trackIndex: i, hand: hand) }
        self.init(posed, bodies: posed.map { Self.body(track.samples[$0.trackIndex].image) })
    }

    /// `posed` (time order) told apart by `bodies`, each frame's picture body (`nil`: none).
    init(_ posed: [FrameMeasure], bodies: [(centre: Point2, size: Double)?]) {
        var seen: [(id: Int, time: Double, centre: Point2, size: Double)] = []
        var ids: [Int] = [], latest = 0, next = 0
        for (f, body) in zip(posed, bodies) {
            guard let body else { ids.append(latest); continue }
            seen.removeAll { f.time - $0.time > Self.linkSeconds }
            let match = seen.indices.reversed().first { k in
                let s = seen[k], dt = f.time - s.time
                let big = max(s.size, body.size), small = min(s.size, body.size)
                guard small > 0, big / small <= Self.sizeRatio else { return false }
                let dx = body.centre.x - s.centre.x, dy = body.centre.y - s.centre.y
                return (dx * dx + dy * dy).squareRoot() <= big * (Self.stillSizes + Self.sizesPerSecond * max(dt, 0))
            }
            let id: Int
            if let match {
                id = seen[match].id
                seen.remove(at: match)
            } else {
                // The first body seen is the person of any frame before it without one.
                id = next == 0 ? latest : next
                next = id + 1
            }
            seen.append((id, f.time, body.centre, body.size))
            ids.append(id)
            latest = id
        }
        all = posed
        person = ids
        frames = Dictionary(grouping: zip(posed, ids), by: \.1).mapValues { $0.map(\.0) }
    }

    /// The frames of the person posed nearest `time` (earlier on a tie); empty without posed frames.
    func frames(near time: Double) -> [FrameMeasure] {
        guard !all.isEmpty else { return [] }
        return frames[person[BiomechAnalyzer.nearestIndex(in: all, to: time)]] ?? []
    }

    /// How many people the frames show.
    var count: Int { frames.count }

    /// A picture body: its hips' midpoint and the larger side of the box around its landmarks, pixels; `nil`
    /// without a full set of picture landmarks.
    static func body(_ image: [Point2]?) -> (centre: Point2, size: Double)? {
        guard let image, image.count == BodyLandmark.count else { return nil }
        let xs = image.map(\.x), ys = image.map(\.y)
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return nil }
        let l = image[BodyLandmark.leftHip], r = image[BodyLandmark.rightHip]
        let size = max(x1 - x0, y1 - y0)
        guard size.isFinite, size > 0 else { return nil }
        return (Point2(x: (l.x + r.x) / 2, y: (l.y + r.y) / 2), size)
    }
}
