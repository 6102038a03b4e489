import SwingCore

/// One shot: where the dominant wrist met the ball relative to the pelvis, and the swing around it.
///
/// The one shape of a shot. `measure --json`, the session document (`analyze --json`, the HTTP API), the
/// CSV and the store all hold this value; its JSON keys are the documented ones
/// (docs/session-document.md). Optional values that do not apply are left out of the JSON.
package struct Shot: Codable, Sendable, Equatable {
    /// 1-based position among the contacts (sorted by time).
    package var index: Int
    /// The contact as heard (media time, seconds).
    package var time: Double
    /// t_c = ``time`` − sound delay: the instant the metrics describe, on the video clock.
    package var contactTime: Double
    /// The contact detector's confidence, 0…1.
    package var confidence: Double
    package var status: ShotStatus
    /// The dominant wrist at t_c relative to the pelvis; `nil` for a no-person shot (as are all metrics below).
    package var contact: ContactPoint?
    /// Wrist speed at the contact frame, cm/s; `nil` also when the track has a single posed frame.
    package var wristSpeedCmS: Double?
    package var classification: ContactClassification?
    /// Forehand, backhand or serve, from the pose over the swing; `nil` for a no-person shot.
    package var stroke: StrokeType?
    /// Index into the measured track's frames of the contact frame: the posed frame nearest t_c
    /// (interpolate mode) or the chosen best-confidence frame. `measure --json` reports it; the session
    /// document names the video frame instead (``contactVideoFrame``) and leaves it out.
    package var contactFrame: Int?
    /// The video frame of the contact frame: decoded frames counted from 0 in presentation order (not
    /// time × fps: phones drop and stretch frames); only in the session document.
    package var contactVideoFrame: Int?
    /// Ground level g of the shot (median lowest-foot height relative to the pelvis), cm;
    /// ``ContactPoint/heightCm`` is measured from it.
    package var groundCm: Double?
    /// The dominant wrist over the swing window.
    package var arc: SwingArc?
    /// `both`, `audio` or `visual`: where the contact came from (only with a visual detector).
    package var source: ContactSource?
    /// Visual − audio contact time for `both` shots, milliseconds.
    package var visualOffsetMs: Double?
    /// Heard by the contact detector or added by the player; `nil` in documents written before edits
    /// existed (read as heard).
    package var origin: ContactOrigin?
    /// The player restored this contact after the swing check rejected it (or added it): it is a shot
    /// whatever the wrist did. Left out of the JSON when false.
    package var confirmed: Bool?
    /// The swing check's measure: the dominant wrist's peak speed relative to the pelvis within
    /// ``BiomechParameters/swingWindow`` of t_c, cm/s (docs/analysis.md, "Swing check"); `nil` when there
    /// were too few posed frames to tell, and for a no-person shot.
    package var peakWristSpeedCmS: Double?
    /// When the dominant wrist reached furthest forward (in a serve, highest) just before the sound (video
    /// clock, seconds): the body's own mark of the hit, from which the session's sound delay is measured
    /// (``SoundDelay``); `nil` when no swing's reach lies in the delay range before the sound.
    package var reachTime: Double?
    /// The body's angles and proportions at t_c (``BodyMeasure``; interpolated between frames like the contact
    /// point, or the chosen frame's); `nil` for a no-person shot.
    package var angles: BodyAngles?
    /// Each body measure's smallest and largest value over the swing window (preparation to follow-through).
    package var angleRange: BodyAngleRange?

    /// A shot not measured yet (`noPerson`, no metrics).
    package init(index: Int, time: Double, contactTime: Double, confidence: Double, status: ShotStatus = .noPerson,
                contact: ContactPoint? = nil, wristSpeedCmS: Double? = nil, classification: ContactClassification? = nil,
                contactFrame: Int? = nil, contactVideoFrame: Int? = nil, groundCm: Double? = nil, arc: SwingArc? = nil,
                source: ContactSource? = nil, visualOffsetMs: Double? = nil, stroke: StrokeType? = nil,
                origin: ContactOrigin? = nil, confirmed: Bool? = nil, peakWristSpeedCmS: Double? = nil) {
        self.index = index; self.time = time; self.contactTime = contactTime; self.confidence = confidence
        self.status = status; self.contact = contact; self.wristSpeedCmS = wristSpeedCmS
        self.classification = classification; self.contactFrame = contactFrame
        self.contactVideoFrame = contactVideoFrame; self.groundCm = groundCm; self.arc = arc
        self.source = source; self.visualOffsetMs = visualOffsetMs; self.stroke = stroke
        self.origin = origin; self.confirmed = confirmed; self.peakWristSpeedCmS = peakWristSpeedCmS
    }
}

/// A contact that is not a shot: no swing around it, or the player removed it. Listed in the session
/// document's `rejectedContacts` and on the results page, where the player can restore it; it is in no
/// statistic.
package struct RejectedContact: Codable, Sendable, Equatable {
    /// The contact as heard (media time, seconds).
    package var time: Double
    /// The contact detector's confidence, 0…1.
    package var confidence: Double
    package var origin: ContactOrigin
    package var kind: RejectionKind
    /// One sentence saying why, for the player.
    package var reason: String
    /// The swing check's measure (``Shot/peakWristSpeedCmS``) when it was taken.
    package var peakWristSpeedCmS: Double?

    package init(time: Double, confidence: Double, origin: ContactOrigin = .heard, kind: RejectionKind,
                reason: String, peakWristSpeedCmS: Double? = nil) {
        self.time = time; self.confidence = confidence; self.origin = origin; self.kind = kind
        self.reason = reason; self.peakWristSpeedCmS = peakWristSpeedCmS
    }
}

/// The dominant wrist at contact relative to the pelvis, body-frame centimetres: (W − P)·f forward,
/// (W − P)·h lateral (toward the hitting side), (W − P)·u − g height above the shot's ground.
package struct ContactPoint: Codable, Sendable, Equatable {
    package var forwardCm: Double
    package var lateralCm: Double
    package var heightCm: Double

    package init(forwardCm: Double, lateralCm: Double, heightCm: Double) {
        self.forwardCm = forwardCm; self.lateralCm = lateralCm; self.heightCm = heightCm
    }
}

/// The dominant wrist over the swing window, Gaussian-smoothed for display (metrics use raw frames).
/// JSON: `{"body": [[forwardCm, lateralCm, heightCm, t], …], "image": [[x, y, t], …]}`.
package struct SwingArc: Codable, Sendable, Equatable {
    package var body: [ArcPoint]
    /// `nil` when not every window frame had image landmarks (and in `measure --json`).
    package var image: [ImageArcPoint]?

    package init(body: [ArcPoint], image: [ImageArcPoint]?) { self.body = body; self.image = image }
}

/// One point of the swing arc: body-frame centimetres (forward, lateral, height above the shot's ground
/// level — the same axes as the contact point) and the frame time. JSON: `[forwardCm, lateralCm, heightCm, t]`.
package struct ArcPoint: Sendable, Equatable {
    package var forwardCm: Double
    package var lateralCm: Double
    package var heightCm: Double
    package var time: Double

    package init(forwardCm: Double, lateralCm: Double, heightCm: Double, time: Double) {
        self.forwardCm = forwardCm; self.lateralCm = lateralCm; self.heightCm = heightCm; self.time = time
    }
}

/// One point of the image-space swing arc and the frame time. JSON: `[x, y, t]`. The analyzer gives the
/// track's image units; the session document holds display pixels (origin top-left).
package struct ImageArcPoint: Sendable, Equatable {
    package var x: Double
    package var y: Double
    package var time: Double

    package init(x: Double, y: Double, time: Double) { self.x = x; self.y = y; self.time = time }
}

/// Arc points are rows of numbers in every JSON (compact, and what the pages plot directly).
extension ArcPoint: Codable {
    package init(from decoder: any Decoder) throws {
        var row = try decoder.unkeyedContainer()
        forwardCm = try row.decode(Double.self); lateralCm = try row.decode(Double.self)
        heightCm = try row.decode(Double.self); time = try row.decode(Double.self)
    }

    package func encode(to encoder: any Encoder) throws {
        var row = encoder.unkeyedContainer()
        try row.encode(forwardCm); try row.encode(lateralCm); try row.encode(heightCm); try row.encode(time)
    }
}

extension ImageArcPoint: Codable {
    package init(from decoder: any Decoder) throws {
        var row = try decoder.unkeyedContainer()
        x = try row.decode(Double.self); y = try row.decode(Double.self); time = try row.decode(Double.self)
    }

    package func encode(to encoder: any Encoder) throws {
        var row = encoder.unkeyedContainer()
        try row.encode(x); try row.encode(y); try row.encode(time)
    }
}
