import Foundation
import SwingCore

/// Reading `pose --json` / `contacts --json` files and writing the `measure --json` report.
///
/// Track shape: `{"frames": [{"time": s, "score"?: x, "landmarks"?: [{"x","y","visibility"?}×33],
/// "worldLandmarks": [{"x","y","z"}×33]}]}`; a frame with no person has empty (or absent / null)
/// `worldLandmarks`. Visibility comes from `landmarks[].visibility`, else `worldLandmarks[].visibility`.
/// Contacts shape: `{"contacts": [{"time": s, "confidence"?: x}]}` (a missing confidence reads as 1).
package enum MeasureIO {
    /// Decodes a pose track.
    /// - Throws: ``BiomechError/invalidTrack(_:)`` for malformed JSON, a missing `frames` array, or frames
    ///   with the wrong number of landmarks.
    package static func decodeTrack(_ data: Data) throws -> PoseTrack {
        if let samples = TrackScanner.samples([UInt8](data)) { return try PoseTrack(samples: samples) }
        return try decodeTrackWithFoundation(data)
    }

    /// The `JSONDecoder` path: the reference for what is accepted, and the source of precise errors.
    static func decodeTrackWithFoundation(_ data: Data) throws -> PoseTrack {
        let file: TrackFile
        do {
            file = try JSONDecoder().decode(TrackFile.self, from: data)
        } catch {
            throw BiomechError.invalidTrack("The pose track is not valid pose JSON (\(summary(error))).")
        }
        let samples = file.frames.map { f -> PoseSample in
            let world = (f.worldLandmarks ?? []).map { Vec3(x: $0.x, y: $0.y, z: $0.z) }
            let image = f.landmarks.flatMap { $0.isEmpty ? nil : $0.map { Point2(x: $0.x, y: $0.y) } }
            var visibility: [Double]?
            if let lm = f.landmarks, !lm.isEmpty, lm.allSatisfy({ $0.visibility != nil }) {
                visibility = lm.compactMap(\.visibility)
            } else if let wl = f.worldLandmarks, !wl.isEmpty, wl.allSatisfy({ $0.visibility != nil }) {
                visibility = wl.compactMap(\.visibility)
            }
            return PoseSample(time: f.time, world: world, image: image, visibility: visibility, score: f.score)
        }
        return try PoseTrack(samples: samples)
    }

    /// `track` in the shape ``decodeTrack(_:)`` reads (`pose --json`'s, which `measure --track` takes), compact
    /// JSON: each frame's time, score, image landmarks (multiplied by `imageScale`, e.g. from the posed picture's
    /// pixels to the video's display pixels) with their visibility, and world landmarks in metres; a frame
    /// with no person has empty landmark lists. World landmarks and times decode to the same doubles.
    /// - Throws: `EncodingError` for a non-finite number.
    package static func encodeTrack(_ track: PoseTrack, imageScale: (x: Double, y: Double) = (1, 1)) throws -> Data {
        let frames = track.samples.map { s -> TrackFrameOut in
            let visibility = s.visibility
            let image = (s.image ?? []).enumerated().map { k, p in
                TrackFrameOut.Image(x: p.x * imageScale.x, y: p.y * imageScale.y,
                                    visibility: visibility.flatMap { k < $0.count ? $0[k] : nil })
            }
            return TrackFrameOut(time: s.time, score: s.score, landmarks: image,
                                 worldLandmarks: s.world.map { TrackFrameOut.World(x: $0.x, y: $0.y, z: $0.z) })
        }
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys]
        return try enc.encode(["frames": frames])
    }

    /// Decodes contact events.
    /// - Throws: ``BiomechError/invalidTrack(_:)`` for malformed JSON or a non-finite time.
    package static func decodeContacts(_ data: Data) throws -> [ContactEvent] {
        let file: ContactsFile
        do {
            file = try JSONDecoder().decode(ContactsFile.self, from: data)
        } catch {
            throw BiomechError.invalidTrack("The contacts file is not valid contacts JSON (\(summary(error))).")
        }
        // `contacts --json` gives each contact's amplitude: its loudness against the loudest hits tells who hit.
        let loudness = ContactLoudness.relativeDb(file.contacts.map { $0.amplitude ?? 0 })
        return try file.contacts.enumerated().map { i, c in
            guard c.time.isFinite else { throw BiomechError.invalidTrack("Contact \(i) has a non-finite time.") }
            return ContactEvent(time: c.time, confidence: c.confidence ?? 1, loudnessDb: loudness[i])
        }
    }

    /// The `{"shots": […], "rejectedContacts": […], "stats": {…}, "soundDelay": {…}}` report as pretty,
    /// key-sorted JSON.
    /// - Parameter includeImageArc: `measure` leaves `arc.image` out (its units are the track's).
    /// - Throws: `EncodingError` for a non-finite number.
    package static func encodeReport(_ result: MeasureResult, includeImageArc: Bool = false) throws -> Data {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var shots = result.shots
        if !includeImageArc { for i in shots.indices { shots[i].arc?.image = nil } }
        return try enc.encode(MeasureReport(shots: shots, rejectedContacts: result.rejected, stats: result.stats,
                                            soundDelay: result.soundDelay))
    }

    static func summary(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let ctx):
            return "missing \"\(key.stringValue)\" at \(path(ctx.codingPath))"
        case DecodingError.typeMismatch(_, let ctx), DecodingError.valueNotFound(_, let ctx):
            return "wrong or missing value at \(path(ctx.codingPath))"
        case DecodingError.dataCorrupted(let ctx):
            return ctx.codingPath.isEmpty ? "not JSON" : "bad value at \(path(ctx.codingPath))"
        default:
            return "\(error)"
        }
    }

    static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "the top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}

private struct TrackFile: Decodable {
    struct Image: Decodable { var x: Double; var y: Double; var visibility: Double? }
    struct World: Decodable { var x: Double; var y: Double; var z: Double; var visibility: Double? }
    struct Frame: Decodable {
        var time: Double
        var score: Double?
        var landmarks: [Image]?
        var worldLandmarks: [World]?
    }
    var frames: [Frame]
}

/// One frame as ``MeasureIO/encodeTrack(_:imageScale:)`` writes it (``TrackFile``'s shape).
private struct TrackFrameOut: Encodable {
    struct Image: Encodable { var x: Double; var y: Double; var visibility: Double? }
    struct World: Encodable { var x: Double; var y: Double; var z: Double }
    var time: Double
    var score: Double?
    var landmarks: [Image]
    var worldLandmarks: [World]
}

private struct ContactsFile: Decodable {
    struct Contact: Decodable { var time: Double; var confidence: Double?; var amplitude: Double? }
    var contacts: [Contact]
}

/// `measure --json`: `{"shots": […], "rejectedContacts": […], "stats": {…}, "soundDelay": {…}}`, the shots,
/// statistics and sound delay in their one shape.
private struct MeasureReport: Encodable {
    var shots: [Shot]
    var rejectedContacts: [RejectedContact]
    var stats: SessionStats
    var soundDelay: SoundDelay
}
