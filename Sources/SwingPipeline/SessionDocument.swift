import Foundation
import SwingBiomech
import SwingCore
import SwingStore
import SwingVision

/// The `analyze --json` document: `{"session": {id, file, duration, fps, hand, shots, stats, …}}`.
public struct SessionDocument: Encodable, Sendable {
    public struct Session: Encodable, Sendable {
        public var id: Int64?
        public var file: String
        public var duration: Double
        public var fps: Double
        public var hand: String
        public var shots: [Shot]
        public var stats: Report.Stats
        /// Contacts heard in the audio (shots include the "no person" ones, stats exclude them).
        public var contactsHeard: Int
        public var warnings: [String]
        /// How the swing windows were posed.
        public var pose: PoseInfo
        /// The visual contact stage (`analyze --detector` only): model, frames, timings, events, sources.
        public var visualDetector: VisualContactReport?
    }
    /// `session.pose`: which frames got a pose estimate (see ``PoseSampling``).
    public struct PoseInfo: Encodable, Sendable {
        /// Frames posed over all windows.
        public var framesPosed: Int
        /// Away from the contacts every `outerStep`-th frame was posed (1 = every frame).
        public var outerStep: Int
        /// Parallel pose workers.
        public var workers: Int
    }

    /// One shot: the measurements of `analyze --json`, plus with a detector where the contact came from.
    public struct Shot: Encodable, Sendable {
        public var measurements: Report.Shot
        /// `both`, `audio` or `visual` (`nil`, and not encoded, without a detector).
        public var source: FusedContact.Source?
        /// Visual − audio contact time for `both` shots, milliseconds (video clock, sound delay removed).
        public var visualOffsetMs: Double?

        enum Keys: String, CodingKey { case source, visualOffsetMs }

        public func encode(to encoder: any Encoder) throws {
            try measurements.encode(to: encoder)
            var c = encoder.container(keyedBy: Keys.self)
            try c.encodeIfPresent(source, forKey: .source)
            try c.encodeIfPresent(visualOffsetMs, forKey: .visualOffsetMs)
        }
    }
    public var session: Session

    /// Builds the document of `analysis`, stored as `id` (nil when not stored).
    public init(_ analysis: SessionAnalysis, id: Int64?, file: String, hand: Hand) {
        let report = Report(analysis.result, includeImageArc: true)
        let shots = zip(report.shots, analysis.result.shots).map { entry, shot in
            let fused = analysis.contactSource(shotIndex: shot.index)
            return Shot(measurements: entry, source: fused?.source, visualOffsetMs: fused?.offset.map { $0 * 1000 })
        }
        session = Session(id: id, file: file, duration: analysis.analysedDuration,
                          fps: analysis.info.video?.frameRate ?? 0, hand: hand.rawValue,
                          shots: shots, stats: report.stats,
                          contactsHeard: analysis.visualContacts?.audioContacts ?? analysis.contacts.count,
                          warnings: analysis.warnings,
                          pose: PoseInfo(framesPosed: analysis.framesPosed, outerStep: analysis.poseOuterStep,
                                         workers: analysis.poseWorkers),
                          visualDetector: analysis.visualContacts)
    }

    /// Pretty, key-sorted JSON.
    public func jsonData() throws -> Data {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try enc.encode(self)
    }
}

/// Writes an analysis to the database in one transaction (all or nothing).
public enum SessionRecorder {
    /// Stores `analysis` and returns the new session id.
    /// - Throws: `StoreError` when the database cannot be written (nothing is stored then), or the
    ///   file system's error when the video cannot be read for its checksum.
    public static func save(_ analysis: SessionAnalysis, path: String, hand: Hand, to db: AppDatabase) throws -> Int64 {
        let checksum = try SHA256.hex(ofFile: path)
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys]
        let report = Report(analysis.result, includeImageArc: true)
        let statsJSON = String(decoding: try enc.encode(report.stats), as: UTF8.self)
        let byIndex = Dictionary(analysis.frames.map { ($0.time, $0) }, uniquingKeysWith: { a, _ in a })
        let trackTimes = try PoseTrackTimes(analysis.frames)

        var shots: [NewShot] = []
        for shot in analysis.result.shots {
            let arcJSON = try shot.arc.map { String(decoding: try enc.encode(ArcJSON($0)), as: UTF8.self) }
            let joints: [[String: [String: Double]]] = shot.windowFrames.compactMap { i in
                guard let t = trackTimes.time(ofTrackIndex: i), let frame = byIndex[t], let pose = frame.pose else { return nil }
                var j = pose.joints.mapValues { ["x": $0.x, "y": $0.y, "z": $0.z] }
                j["_frame"] = ["index": Double(frame.index), "time": frame.time]
                return j
            }
            let jointsJSON = joints.isEmpty ? nil : String(decoding: try enc.encode(joints), as: UTF8.self)
            let fused = analysis.contactSource(shotIndex: shot.index)
            shots.append(NewShot(
                index: shot.index, time: shot.time, confidence: shot.confidence, status: shot.status.rawValue,
                forwardCm: shot.forwardCm, lateralCm: shot.lateralCm, heightCm: shot.heightCm,
                wristSpeedCmS: shot.wristSpeedCmS, classification: shot.classification?.rawValue,
                contactFrame: shot.contactFrame.flatMap { trackTimes.frameIndex(ofTrackIndex: $0) },
                arcJSON: arcJSON, jointsJSON: jointsJSON, source: fused?.source.rawValue,
                visualOffsetMs: fused?.offset.map { $0 * 1000 }))
        }
        let session = NewSession(
            filePath: path, fileSHA256: checksum, durationSeconds: analysis.analysedDuration,
            fps: analysis.info.video?.frameRate ?? 0, hand: hand == .left ? .left : .right,
            statsJSON: statsJSON, shotCount: analysis.result.stats.shotCount,
            consistency: analysis.result.stats.consistency)
        return try db.saveSession(session, shots: shots)
    }
}

/// Maps biomechanics track indices (sorted, de-duplicated frame times) back to video frames.
struct PoseTrackTimes {
    private let times: [Double]
    private let indices: [Int]
    init(_ frames: [WindowFrame]) throws {
        let samples = SessionAnalyzer.dedupedSamples(frames)
        let track = try PoseTrack(samples: samples)
        times = track.samples.map(\.time)
        let byTime = Dictionary(frames.map { ($0.time, $0.index) }, uniquingKeysWith: { a, _ in a })
        indices = times.map { byTime[$0] ?? -1 }
    }
    func time(ofTrackIndex i: Int) -> Double? { times.indices.contains(i) ? times[i] : nil }
    func frameIndex(ofTrackIndex i: Int) -> Int? { indices.indices.contains(i) && indices[i] >= 0 ? indices[i] : nil }
}

/// The stored arc: the same arrays as `analyze --json` (`body`: [forward, lateral, height cm, t],
/// `image`: [x px, y px, t]).
private struct ArcJSON: Encodable {
    var body: [[Double]]
    var image: [[Double]]?
    init(_ arc: SwingArc) {
        body = arc.body.map { [$0.forwardCm, $0.lateralCm, $0.heightCm, $0.time] }
        image = arc.image?.map { [$0.x, $0.y, $0.time] }
    }
}
