import Foundation
import SwingCore

/// Reading `pose --json` / `contacts --json` files and writing the `measure --json` report.
///
/// Track shape: `{"frames": [{"time": s, "score"?: x, "landmarks"?: [{"x","y","visibility"?}×33],
/// "worldLandmarks": [{"x","y","z"}×33]}]}`; a frame with no person has empty (or absent / null)
/// `worldLandmarks`. Visibility comes from `landmarks[].visibility`, else `worldLandmarks[].visibility`.
/// Contacts shape: `{"contacts": [{"time": s, "confidence"?: x}]}` (a missing confidence reads as 1).
public enum MeasureIO {
    /// Decodes a pose track.
    /// - Throws: ``BiomechError/invalidTrack(_:)`` for malformed JSON, a missing `frames` array, or frames
    ///   with the wrong number of landmarks.
    public static func decodeTrack(_ data: Data) throws -> PoseTrack {
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

    /// Decodes contact events.
    /// - Throws: ``BiomechError/invalidTrack(_:)`` for malformed JSON or a non-finite time.
    public static func decodeContacts(_ data: Data) throws -> [ContactEvent] {
        let file: ContactsFile
        do {
            file = try JSONDecoder().decode(ContactsFile.self, from: data)
        } catch {
            throw BiomechError.invalidTrack("The contacts file is not valid contacts JSON (\(summary(error))).")
        }
        return try file.contacts.enumerated().map { i, c in
            guard c.time.isFinite else { throw BiomechError.invalidTrack("Contact \(i) has a non-finite time.") }
            return ContactEvent(time: c.time, confidence: c.confidence ?? 1)
        }
    }

    /// The `{"shots": […], "stats": {…}}` report as pretty, key-sorted JSON.
    /// - Parameter includeImageArc: `measure` leaves `arc.image` out; `analyze` includes it.
    public static func encodeReport(_ result: MeasureResult, includeImageArc: Bool = false) throws -> Data {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try enc.encode(Report(result, includeImageArc: includeImageArc))
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

private struct ContactsFile: Decodable {
    struct Contact: Decodable { var time: Double; var confidence: Double? }
    var contacts: [Contact]
}

/// The JSON shapes of issue 5 (`analyze --json` / `measure --json`).
public struct Report: Encodable, Sendable {
    /// The dominant wrist at contact relative to the pelvis (height from the ground), cm.
    public struct Contact: Codable, Sendable, Equatable {
        public var forwardCm, lateralCm, heightCm: Double
        public init(forwardCm: Double, lateralCm: Double, heightCm: Double) {
            self.forwardCm = forwardCm; self.lateralCm = lateralCm; self.heightCm = heightCm
        }
    }
    /// The wrist path: `body` rows are [forward, lateral, height cm, t s], `image` rows [x px, y px, t s].
    public struct Arc: Codable, Sendable, Equatable {
        public var body: [[Double]]
        public var image: [[Double]]?
        public init(body: [[Double]], image: [[Double]]?) { self.body = body; self.image = image }
    }
    public struct Shot: Encodable, Sendable {
        var index: Int
        var time: Double
        var contactTime: Double
        var confidence: Double
        var status: ShotStatus
        public var contact: Contact?
        var wristSpeedCmS: Double?
        var classification: ContactClassification?
        /// Index into the input track's `frames` of the contact frame.
        var contactFrame: Int?
        var groundCm: Double?
        public var arc: Arc?
    }
    /// Session statistics over the shots with a person.
    public struct Stats: Codable, Sendable, Equatable {
        public var shotCount: Int
        public var forward, lateral, height: AxisStats?
        public var consistency: Double?
        public var wristSpeed: SpeedStats?
        public init(shotCount: Int, forward: AxisStats?, lateral: AxisStats?, height: AxisStats?,
                    consistency: Double?, wristSpeed: SpeedStats?) {
            self.shotCount = shotCount; self.forward = forward; self.lateral = lateral; self.height = height
            self.consistency = consistency; self.wristSpeed = wristSpeed
        }
    }
    public var shots: [Shot]
    public var stats: Stats

    /// The report of `result`; `arc.image` only when `includeImageArc`.
    public init(_ result: MeasureResult, includeImageArc: Bool) {
        shots = result.shots.map { s in
            var contact: Contact?
            if let f = s.forwardCm, let l = s.lateralCm, let h = s.heightCm { contact = Contact(forwardCm: f, lateralCm: l, heightCm: h) }
            let arc = s.arc.map { a in
                Arc(body: a.body.map { [$0.forwardCm, $0.lateralCm, $0.heightCm, $0.time] },
                    image: includeImageArc ? a.image.map { $0.map { [$0.x, $0.y, $0.time] } } : nil)
            }
            return Shot(index: s.index, time: s.time, contactTime: s.contactTime, confidence: s.confidence,
                        status: s.status, contact: contact, wristSpeedCmS: s.wristSpeedCmS,
                        classification: s.classification, contactFrame: s.contactTrackIndex, groundCm: s.groundCm, arc: arc)
        }
        let st = result.stats
        stats = Stats(shotCount: st.shotCount, forward: st.forward, lateral: st.lateral, height: st.height,
                      consistency: st.consistency, wristSpeed: st.wristSpeed)
    }
}
