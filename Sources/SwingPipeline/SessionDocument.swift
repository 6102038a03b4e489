import Foundation
import SwingAudio
import SwingBiomech
import SwingCore
import SwingVision

/// The one session document: `{"session": {id, file, createdAt, duration, fps, width, height, hand, shots,
/// stats, …}}`.
///
/// `analyze --json`, `sessions export --json` and the HTTP API's `GET /api/sessions/{id}` all print the
/// bytes of ``jsonData()`` for the same value (the store keeps those bytes), so the three are identical
/// for one session. Its shots and statistics are the one ``Shot`` and ``SessionStats`` of SwingBiomech. Frame
/// indices are named for what they index: a shot here carries ``Shot/contactVideoFrame`` (a frame of the
/// video: decoded frames counted from 0 in presentation order), never the track's ``Shot/contactFrame``.
package struct SessionDocument: Codable, Sendable, Equatable {
    package struct Session: Codable, Sendable, Equatable {
        /// The stored session's id; `nil` (not encoded) when the analysis was not stored.
        package var id: Int64?
        /// The video as the user named it (a path for the CLI, the upload's file name for the server).
        package var file: String
        /// When the analysis finished (whole seconds, so the document survives a JSON round trip).
        package var createdAt: Date
        /// Where the analysed part starts (media time, seconds; `--start`). `nil` for sessions stored
        /// before it was recorded (they began at 0 unless the user said otherwise).
        package var start: Double?
        /// Length of the analysed part, seconds (what decoded).
        package var duration: Double
        /// Length the file states for that part, seconds: more than ``duration`` when the file was cut
        /// short (then ``warnings`` says so). `nil` for sessions stored before it was recorded.
        package var statedDuration: Double?
        package var fps: Double
        /// Display size of the video (after its rotation); image coordinates in shots refer to it.
        package var width: Int
        package var height: Int
        package var hand: Hand
        package var shots: [Shot]
        /// Contacts that are not shots (no swing around them, or removed by the player), time order; `nil`
        /// in documents written before the swing check.
        package var rejectedContacts: [RejectedContact]?
        package var stats: SessionStats
        /// Contacts heard in the audio (shots include the "no person" ones, stats exclude them).
        package var contactsHeard: Int
        package var warnings: [String]
        /// How the swing windows were posed; `nil` for sessions stored before the documents were kept.
        package var pose: PoseInfo?
        /// The visual contact stage (`analyze --detector` only).
        package var visualDetector: VisualDetector?
        /// The contacts as the detector gave them, before any edit (`nil` until the session is first
        /// edited): with ``edits`` they say which contacts the shots and ``rejectedContacts`` came from.
        package var heardContacts: [ContactEvent]?
        /// The player's corrections in the order made (``SessionEditor``); undo drops the last.
        package var edits: [ContactEdit]?
        /// How readily a sound counted as a hit, when not `normal` (`analyze --sensitivity`, the upload
        /// form, or listening again from the results page).
        package var sensitivity: ContactSensitivity?
        /// Expert thresholds set beside the sensitivity when the session was listened to again.
        package var detectorThresholds: SessionEditor.DetectorThresholds?
        /// What the contact model that found the contacts learnt from (`analyze --contact-model`); `nil`
        /// when the detector found them.
        package var contactModel: ContactModel.Provenance? = nil
        /// How far the sound lagged the picture and where that came from; every shot's ``Shot/contactTime``
        /// is its ``Shot/time`` minus it. `nil` in documents written before it was recorded (measured at
        /// the delay their `parameters` held, 0 unless given).
        package var soundDelay: SoundDelay? = nil
        /// Where the player said they are (`analyze --player X,Y[@SECONDS]`, the upload page's picker, or the
        /// results page's "tap yourself"): the pose stage followed the person there. `nil` (not encoded) when it
        /// chose by itself (the biggest person in view, or at a loud hit where they did not swing, whoever
        /// else did: docs/analysis.md, "Who hits").
        package var player: PlayerMark? = nil
    }

    /// `session.pose`: which frames got a pose estimate (see ``PoseSampling``).
    package struct PoseInfo: Codable, Sendable, Equatable {
        /// Frames posed over all windows.
        package var framesPosed: Int
        /// Away from the contacts every `outerStep`-th frame was posed (1 = every frame).
        package var outerStep: Int
        /// Parallel pose workers.
        package var workers: Int
    }

    /// What `analyze --detector` saw and how the contacts were fused.
    package struct VisualDetector: Codable, Sendable, Equatable {
        package var model: String
        package var scope: DetectorScope
        package var stride: Int
        package var toleranceSeconds: Double
        package var framesProcessed: Int
        package var detectionCount: Int
        /// Mean milliseconds per processed frame.
        package var preMs: Double
        package var inferenceMs: Double
        package var postMs: Double
        /// Wall-clock seconds of the stage.
        package var seconds: Double
        package var visualEvents: [TennisContactInterpreter.Event]
        /// Contacts the sound alone gave.
        package var audioContacts: Int
        /// Fused contacts per source: `both`, `audio`, `visual`.
        package var sources: [String: Int]
    }

    package var session: Session

    package init(session: Session) { self.session = session }

    /// Builds the document of `analysis`.
    /// - Parameters:
    ///   - id: The stored session's id, `nil` when not stored.
    ///   - file: How the user named the video.
    ///   - createdAt: When the analysis finished (rounded down to whole seconds).
    package init(_ analysis: SessionAnalysis, id: Int64?, file: String, hand: Hand, createdAt: Date = Date()) {
        let shots = Self.documentShots(analysis.result, scale: analysis.displayScale, videoFrames: analysis.trackVideoFrames) { shot in
            analysis.contactSource(time: shot.time).map { ($0.source, $0.offset.map { $0 * 1000 }) }
        }
        let size: (width: Int, height: Int) = analysis.info.video?.displaySize ?? (0, 0)
        session = Session(id: id, file: file, createdAt: Self.wholeSeconds(createdAt),
                          start: analysis.analysedStart, duration: analysis.analysedDuration, statedDuration: analysis.statedDuration, fps: analysis.info.video?.frameRate ?? 0,
                          width: size.width, height: size.height, hand: hand, shots: shots,
                          rejectedContacts: analysis.result.rejected, stats: analysis.result.stats,
                          contactsHeard: analysis.visualContacts?.summary.audioContacts ?? analysis.contacts.count,
                          warnings: analysis.warnings,
                          pose: PoseInfo(framesPosed: analysis.framesPosed, outerStep: analysis.poseOuterStep,
                                         workers: analysis.poseWorkers),
                          visualDetector: analysis.visualContacts?.summary,
                          sensitivity: analysis.sensitivity == .normal ? nil : analysis.sensitivity,
                          contactModel: analysis.contactModel, soundDelay: analysis.result.soundDelay,
                          player: analysis.player)
    }

    /// The measured shots as the document holds them: image points in display pixels (the track's are in
    /// pose pixels), the contact frame named as a video frame, and the visual source when a detector ran.
    /// - Parameters:
    ///   - videoFrames: The video frame of each track sample (−1 when unknown).
    ///   - source: The visual source and offset (ms) of a shot, `nil` without a detector.
    static func documentShots(_ result: MeasureResult, scale: (x: Double, y: Double), videoFrames: [Int],
                              source: (Shot) -> (ContactSource, Double?)?) -> [Shot] {
        result.shots.map { measured in
            var shot = measured
            if let image = shot.arc?.image {
                shot.arc?.image = image.map { ImageArcPoint(x: $0.x * scale.x, y: $0.y * scale.y, time: $0.time) }
            }
            shot.contactVideoFrame = measured.contactFrame.flatMap { videoFrames.indices.contains($0) && videoFrames[$0] >= 0 ? videoFrames[$0] : nil }
            shot.contactFrame = nil
            let fused = source(measured)
            shot.source = fused?.0
            shot.visualOffsetMs = fused?.1
            return shot
        }
    }

    /// The document's bytes: pretty-printed, keys sorted, dates ISO 8601. Every output uses these bytes.
    package func jsonData() throws -> Data { try Self.encoder.encode(self) }

    /// Reads a document written by ``jsonData()``.
    /// - Throws: `DecodingError` when `data` is not such a document.
    package static func decode(_ data: Data) throws -> SessionDocument { try decoder.decode(Self.self, from: data) }

    static var encoder: JSONEncoder {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        enc.dateEncodingStrategy = .iso8601
        return enc
    }

    static var decoder: JSONDecoder {
        let dec = JSONDecoder()
        dec.dateDecodingStrategy = .iso8601
        return dec
    }

    static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}

extension SessionDocument {
    /// One CSV row per shot — the one CSV of a session (`analyze --csv`, `sessions export --csv`, the
    /// API's `export.csv`). Numbers have 3 decimals; empty cells where a value does not apply. The
    /// `source` and `visualOffsetMs` columns appear only for sessions analysed with a detector; the body
    /// measures at contact (``BodyMeasure``, degrees or shoulder widths) close every row.
    package func csv() -> String {
        let s = session
        let fused = s.shots.contains { $0.source != nil }
        var out = "session,index,time,contactTime,confidence,status,forwardCm,lateralCm,heightCm,wristSpeedCmS,classification,contactVideoFrame,stroke"
            + (fused ? ",source,visualOffsetMs" : "")
            + BodyMeasure.allCases.map { ",\($0.rawValue)" }.joined() + "\n"
        func num(_ v: Double?) -> String { v.map { String(format: "%.3f", $0) } ?? "" }
        for shot in s.shots {
            var row = [s.id.map { "\($0)" } ?? "", "\(shot.index)", num(shot.time), num(shot.contactTime),
                       num(shot.confidence), shot.status.rawValue, num(shot.contact?.forwardCm),
                       num(shot.contact?.lateralCm), num(shot.contact?.heightCm), num(shot.wristSpeedCmS),
                       shot.classification?.rawValue ?? "", shot.contactVideoFrame.map { "\($0)" } ?? "",
                       shot.stroke?.rawValue ?? ""]
            if fused { row += [shot.source?.rawValue ?? "", num(shot.visualOffsetMs)] }
            row += BodyMeasure.allCases.map { num(shot.angles?[$0]) }
            out += row.joined(separator: ",") + "\n"
        }
        return out
    }
}
