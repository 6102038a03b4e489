import Foundation
import SwingCore
import SwingMedia
import SwingPose

/// One person the pose stage could follow in a picture, for the player to point at themselves (the web app's
/// picker: `GET /api/sessions/{id}/people`, `POST /api/people`).
package struct PersonInView: Codable, Sendable, Equatable {
    /// Around the person's body (the landmarks the pose stage would find from their detection, a little
    /// padded), as fractions of the picture's width and height from its top-left.
    package var box: Rect
    /// The hip centre the detector sees, fractions of the picture: the point to give as the player's
    /// (``PlayerMark``) to have this person measured. Kept inside the picture: someone cut by its bottom edge
    /// has their hips below it, and a mark is a point of the picture.
    package var hips: Point2
    /// The body size (about the standing height) as a fraction of the picture's height.
    package var size: Double
    /// The detector's confidence, 0–1.
    package var score: Double

    package init(box: Rect, hips: Point2, size: Double, score: Double) {
        self.box = box; self.hips = hips; self.size = size; self.score = score
    }
}

/// The people in one frame of a video, or in one picture.
package struct PeopleInView: Codable, Sendable, Equatable {
    /// The frame's time (media time, seconds) when it came from a video: the moment to give with a point
    /// (``PlayerMark/time``); `nil` for a picture.
    package var time: Double?
    /// The picture looked at, pixels (upright; a video's frame at the size the pose stage poses it).
    package var width: Int
    package var height: Int
    /// The people, left to right by their hips.
    package var people: [PersonInView]

    package init(time: Double?, width: Int, height: Int, people: [PersonInView]) {
        self.time = time; self.width = width; self.height = height; self.people = people
    }
}

/// Finds the people in a frame with the pose stage's own person detection (the whole frame and its tiles,
/// upright people at least ``WindowPoser/minimumPersonFraction`` of the picture's shorter side, as
/// ``PoseTracker`` follows them in a window), so a person the player can point at is one the analysis can
/// measure, and the point it returns for them (their hips) is what the pose stage compares.
package enum PeopleFinder {
    /// At most this many people are outlined (the most confident): a crowd in the stands is not a choice.
    package static let maxPeople = 12
    /// The longest side of a picture accepted (``people(inPicture:estimator:)``): 4K. A browser sends a frame
    /// of the video at most 1920 pixels long.
    package static let maxPictureSide = 4096
    /// The largest picture file accepted, bytes.
    package static let maxPictureBytes = 8 << 20

    /// The people in `image` whom the pose stage could follow, left to right: each one's landmark outline,
    /// hips and size. Bounded: one tiled detection and at most ``maxPeople`` landmark runs.
    /// - Throws: `InferenceError` if ONNX Runtime fails.
    package static func people(in image: ImageBuffer, estimator: PoseEstimator) throws -> [PersonInView] {
        let tracker = PoseTracker(estimator: estimator)
        tracker.uprightOnly = true
        tracker.minimumPersonFraction = WindowPoser.minimumPersonFraction
        let found = tracker.followable(try estimator.detectPeople(in: image, tiles: true), in: image)
        let w = Double(max(image.width, 1)), h = Double(max(image.height, 1))
        var out: [PersonInView] = []
        for person in found.sorted(by: { $0.score > $1.score }).prefix(maxPeople) {
            guard let box = try estimator.outline(of: person, in: image) else { continue }
            out.append(PersonInView(box: Rect(x1: box.x1 / w, y1: box.y1 / h, x2: box.x2 / w, y2: box.y2 / h),
                                    hips: Point2(x: min(max(person.position.x, 0), 1), y: min(max(person.position.y, 0), 1)),
                                    size: person.sizeFraction, score: person.score))
        }
        return out.sorted { $0.hips.x < $1.hips.x }
    }

    /// The people in a JPEG or PNG picture held in memory (a frame the browser took from the player's video).
    /// - Throws: ``MediaError`` `.imageUnreadable` for anything that is not a JPEG or PNG, an empty or damaged
    ///   one, or one larger than ``maxPictureBytes`` or ``maxPictureSide`` (refused before its pixels are
    ///   allocated); `InferenceError` if ONNX Runtime fails.
    package static func people(inPicture data: Data, estimator: PoseEstimator) throws -> PeopleInView {
        guard data.count <= maxPictureBytes else {
            throw MediaError(.imageUnreadable, "The picture is larger than \(maxPictureBytes >> 20) MB; send one frame as a JPEG or PNG.")
        }
        guard let size = ImageIO.pictureSize(of: data) else {
            throw MediaError(.imageUnreadable, "The picture is not a readable JPEG or PNG.")
        }
        guard size.width <= maxPictureSide, size.height <= maxPictureSide else {
            throw MediaError(.imageUnreadable, "The picture is \(size.width)×\(size.height) pixels; send one at most \(maxPictureSide) pixels on its longer side.")
        }
        let image = try ImageIO.decode(data)
        return PeopleInView(time: nil, width: image.width, height: image.height, people: try people(in: image, estimator: estimator))
    }

    /// The people in the frame of the video at `path` shown at `time` (the last frame starting at or before it,
    /// as a browser's `<video>` shows it; the first frame for a time before it), decoded at the size the pose
    /// stage poses it (longer side at most `maxSide`).
    /// - Returns: `nil` when the video has no frame at or after `time` within a frame of it (past its end).
    /// - Throws: ``MediaError`` when the video cannot be read; `InferenceError` if ONNX Runtime fails.
    package static func people(inVideo path: String, at time: Double, maxSide: Int? = AnalysisOptions().maxPoseImageSide,
                              estimator: PoseEstimator) throws -> PeopleInView? {
        guard let (image, shown) = try frame(inVideo: path, at: time, maxSide: maxSide) else { return nil }
        return PeopleInView(time: shown, width: image.width, height: image.height, people: try people(in: image, estimator: estimator))
    }

    /// The frame of the video at `path` shown at `time` and its own time (see ``people(inVideo:at:maxSide:estimator:)``).
    static func frame(inVideo path: String, at time: Double, maxSide: Int?) throws -> (ImageBuffer, Double)? {
        guard time.isFinite, time >= 0 else {
            throw MediaError(.invalidTimeRange, "The moment must be a number of seconds from 0, not \(time).")
        }
        let info = try MediaProbe.probe(path)
        guard let video = info.video else { throw MediaError(.noVideoTrack, "\(path) has no video track.") }
        let reader = try VideoFrameReader(path: path, targetSize: SessionAnalyzer.poseSize(video.displaySize, maxSide: maxSide))
        let frame = 1 / max(video.frameRate, 1)
        let eps = 1e-4   // float noise in timestamps, far below a frame
        var shown: VideoFrame?
        try reader.frames(from: max(0, time - 2 * frame), to: time + 2 * frame) { f in
            if f.time <= time + eps || shown == nil { shown = f }
            return f.time <= time + eps
        }
        return shown.map { ($0.image, $0.time) }
    }
}

extension SessionAnalyzer {
    /// Whom the pose stage follows: ``AnalysisOptions/player``, except that a ``PlayerMark`` with a moment is
    /// looked up first — the frame shown at that moment, the people in it as the picker lists them
    /// (``PeopleFinder``), and the one whose hips are nearest the mark's point — and that person is followed in
    /// every window as ``PersonChoice/like(position:size:)``. When the moment has no frame or nobody is found
    /// there, each window follows the person nearest the point, and `note` says so.
    func resolvedPlayer(path: String, maxSide: Int?, estimator: @autoclosure () throws -> PoseEstimator) throws
        -> (choice: PersonChoice, note: String?) {
        guard case .marked(let mark) = options.player, let time = mark.time else { return (options.player, nil) }
        let at = "\(Self.playerNotePrefix), at \(String(format: "%.2f", time)) s,"
        guard let (image, _) = try PeopleFinder.frame(inVideo: path, at: time, maxSide: maxSide) else {
            return (options.player, "\(at) the video has no frame; each shot was measured on the person nearest your point.")
        }
        let people = try PeopleFinder.people(in: image, estimator: try estimator())
        let p = mark.point
        guard let chosen = people.min(by: { Self.squaredDistance($0.hips, p) < Self.squaredDistance($1.hips, p) }) else {
            return (options.player, "\(at) nobody the pose stage can measure was found; each shot was measured on the person nearest your point.")
        }
        return (.like(position: chosen.hips, size: chosen.size), nil)
    }

    /// How the warnings about the player's mark begin (an edit that points again replaces them).
    static let playerNotePrefix = "Where you pointed at yourself"

    static func squaredDistance(_ a: Point2, _ b: Point2) -> Double { (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) }
}

/// ``PeopleFinder`` for a server: BlazePose loaded the first time it is asked, and one picture looked at a time
/// (a run uses every core), off the caller's thread.
package final class PeopleService: Sendable {
    private let pose: LoadedPose
    private let queue = InferenceQueue(label: "swingmaster.people")

    /// - Parameter modelsDirectory: The BlazePose folder (`nil`: ``PoseModels/defaultDirectory()``).
    package init(modelsDirectory: URL? = nil) { pose = LoadedPose(modelsDirectory: modelsDirectory) }

    /// ``PeopleFinder/people(inPicture:estimator:)`` in its turn.
    /// - Throws: as that, and ``PoseError`` / `InferenceError` when the models cannot be loaded.
    package func people(inPicture data: Data) async throws -> PeopleInView {
        let estimator = try await pose.get()
        return try await queue.run { try PeopleFinder.people(inPicture: data, estimator: estimator) }
    }

    /// ``PeopleFinder/people(inVideo:at:maxSide:estimator:)`` in its turn, at the pose stage's default size.
    /// - Throws: as that, and ``PoseError`` / `InferenceError` when the models cannot be loaded.
    package func people(inVideo path: String, at time: Double) async throws -> PeopleInView? {
        let estimator = try await pose.get()
        return try await queue.run { try PeopleFinder.people(inVideo: path, at: time, estimator: estimator) }
    }
}
