import Foundation
import SwingAudio
import SwingBiomech
import SwingCore
import SwingMedia
import SwingStore

/// What the player asks of one analysis of an upload — the upload form's choices (`POST /api/uploads`'
/// query: hand, part of the video, swing check, sensitivity, where they are in the picture) — kept with the
/// job and turned into ``AnalysisOptions`` by the job runner, whichever process runs it.
package struct AnalysisRequest: Codable, Sendable, Equatable {
    /// The hitting hand; `nil` uses the stored preference (right when none is stored).
    package var hand: Hand?
    /// Part of the video to analyse, seconds; `nil` for its start and the rest of it.
    package var start: Double?
    package var duration: Double?
    /// Whether a heard contact needs a swing to be a shot (`analyze --no-swing-check` when false).
    package var swingCheck: Bool
    /// How readily a sound counts as a hit.
    package var sensitivity: ContactSensitivity
    /// Where the player said they are (`nil`: the pose stage chooses).
    package var player: PlayerMark?
    /// The player's racket sound (``RacketSound``) to hear the hits with; `nil`: the detector at ``sensitivity``.
    package var racketSound: Int64?

    package init(hand: Hand? = nil, start: Double? = nil, duration: Double? = nil, swingCheck: Bool = true,
                sensitivity: ContactSensitivity = .normal, player: PlayerMark? = nil, racketSound: Int64? = nil) {
        self.hand = hand; self.start = start; self.duration = duration; self.swingCheck = swingCheck
        self.sensitivity = sensitivity; self.player = player; self.racketSound = racketSound
    }

    /// The part of the video asked for, `nil` for all of it.
    package var range: TimeRange? {
        start != nil || duration != nil ? TimeRange(start: start ?? 0, duration: duration) : nil
    }

    /// The analysis options of this request for a `hand`-handed player (the sound delay measured from the
    /// body, the server's defaults otherwise). A ``racketSound`` is not among them: the job runner reads its
    /// model from the store.
    package func options(hand: Hand, poseWorkers: Int = 0) -> AnalysisOptions {
        var options = AnalysisOptions()
        options.range = range
        options.biomech = BiomechParameters(hand: hand, soundDelayMs: nil)   // measured from the body
        options.biomech.swingCheck = swingCheck
        options.poseSampling.workers = poseWorkers
        if sensitivity != .normal {
            options.sensitivity = sensitivity
            options.detector = sensitivity.apply(to: options.detector)
        }
        if let player { options.player = .marked(player) }
        return options
    }
}

extension JobRecord {
    /// A queued job analysing upload `path` (its SHA-256 `sha256`, named `fileName` by the player) as `request` asks.
    package init(upload path: String, sha256: String, fileName: String, request: AnalysisRequest, warnings: [String] = []) {
        self.init(mediaSHA256: sha256, mediaPath: path, fileName: fileName, hand: request.hand?.rawValue,
                  start: request.start, duration: request.duration, swingCheck: request.swingCheck,
                  sensitivity: request.sensitivity == .normal ? nil : request.sensitivity.rawValue,
                  player: request.player.map { ($0.x, $0.y, $0.time) }, contactModelId: request.racketSound, warnings: warnings)
    }

    /// What the job's player asked for, from its columns.
    package var request: AnalysisRequest {
        AnalysisRequest(hand: hand.flatMap(Hand.init(rawValue:)), start: start, duration: duration, swingCheck: swingCheck,
                        sensitivity: sensitivity.flatMap(ContactSensitivity.init(rawValue:)) ?? .normal, player: playerMark,
                        racketSound: contactModelId)
    }

    /// Where the player said they are, from the job's columns (`nil` when they did not).
    package var playerMark: PlayerMark? {
        guard let playerX, let playerY else { return nil }
        return PlayerMark(x: playerX, y: playerY, time: playerTime)
    }
}
