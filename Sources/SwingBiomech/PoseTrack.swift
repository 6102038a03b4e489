import SwingCore

/// One frame of a pose track.
///
/// `world` holds the 33 BlazePose world landmarks (MediaPipe convention: metres, hip-centred, x right,
/// y down, z away from the camera), or is empty when the frame has no person.
package struct PoseSample: Sendable, Equatable {
    /// Seconds from the start of the media.
    package var time: Double
    /// 33 world landmarks, or empty for "no person in this frame".
    package var world: [Vec3]
    /// 33 image landmarks (pixels or normalised, top-left origin), if known; used for the image arc.
    package var image: [Point2]?
    /// 33 landmark visibilities in 0…1, if known.
    package var visibility: [Double]?
    /// Pose score in 0…1, if known.
    package var score: Double?

    package init(time: Double, world: [Vec3], image: [Point2]? = nil, visibility: [Double]? = nil, score: Double? = nil) {
        self.time = time; self.world = world; self.image = image; self.visibility = visibility; self.score = score
    }

    /// Whether the frame has a person.
    package var hasPose: Bool { !world.isEmpty }

    /// The confidence best-confidence mode ranks by: `score`, else mean visibility, else 0.
    package var confidence: Double {
        if let score { return score }
        if let v = visibility, !v.isEmpty { return v.reduce(0, +) / Double(v.count) }
        return 0
    }
}

/// A validated pose track: frames sorted by time with distinct, finite times; each frame has 0 or 33
/// finite world landmarks (and 33 image points / visibilities when given).
package struct PoseTrack: Sendable, Equatable {
    /// The frames in time order.
    package let samples: [PoseSample]

    /// Validates and sorts `samples`.
    /// - Throws: ``BiomechError/invalidTrack(_:)`` naming the first bad frame (by its position in the input).
    package init(samples: [PoseSample]) throws {
        for (i, s) in samples.enumerated() {
            guard s.time.isFinite else { throw BiomechError.invalidTrack("Frame \(i) of the track has a non-finite time.") }
            guard s.world.isEmpty || s.world.count == BodyLandmark.count else {
                throw BiomechError.invalidTrack(
                    "Frame \(i) of the track has \(s.world.count) world landmarks; expected \(BodyLandmark.count) (BlazePose) or none.")
            }
            guard s.world.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else {
                throw BiomechError.invalidTrack("Frame \(i) of the track has a non-finite world landmark.")
            }
            if let image = s.image, !image.isEmpty, image.count != BodyLandmark.count {
                throw BiomechError.invalidTrack("Frame \(i) of the track has \(image.count) image landmarks; expected \(BodyLandmark.count).")
            }
            if let v = s.visibility, !v.isEmpty, v.count != BodyLandmark.count {
                throw BiomechError.invalidTrack("Frame \(i) of the track has \(v.count) visibilities; expected \(BodyLandmark.count).")
            }
        }
        let sorted = samples.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        for i in sorted.indices.dropFirst() where sorted[i].time == sorted[i - 1].time {
            throw BiomechError.invalidTrack("Two frames of the track share the time \(sorted[i].time) s; frame times must be distinct.")
        }
        self.samples = sorted
    }
}

/// One contact to measure: the audio time, the detector's confidence, where it came from, and whether
/// the player vouched for it.
package struct ContactEvent: Sendable, Equatable, Codable {
    /// Seconds from the start of the media (audio clock; the sound delay is subtracted later).
    package var time: Double
    /// Detector confidence in 0…1 (1 for a contact the player added).
    package var confidence: Double
    /// Heard by the detector or added by the player.
    package var origin: ContactOrigin
    /// The player added or restored this contact: the swing check does not apply to it.
    package var confirmed: Bool
    /// How loud the sound was relative to the session's loudest hits, dB (0 = as loud, −12 = a quarter of
    /// their amplitude; ``ContactLoudness``); `nil` when not measured (a contact model, an added contact).
    /// The phone is nearer its player than the opponent, so the player's hits are the loud ones.
    package var loudnessDb: Double?

    package init(time: Double, confidence: Double, origin: ContactOrigin = .heard, confirmed: Bool = false,
                loudnessDb: Double? = nil) {
        self.time = time; self.confidence = confidence; self.origin = origin; self.confirmed = confirmed
        self.loudnessDb = loudnessDb
    }

    private enum CodingKeys: String, CodingKey { case time, confidence, origin, confirmed, loudnessDb }

    /// Reads `{"time", "confidence"}` and, when present, `origin` and `confirmed`.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        time = try c.decode(Double.self, forKey: .time)
        confidence = try c.decodeIfPresent(Double.self, forKey: .confidence) ?? 1
        origin = try c.decodeIfPresent(ContactOrigin.self, forKey: .origin) ?? .heard
        confirmed = try c.decodeIfPresent(Bool.self, forKey: .confirmed) ?? false
        loudnessDb = try c.decodeIfPresent(Double.self, forKey: .loudnessDb)
    }

    /// Writes `origin` and `confirmed` only when they differ from a heard, unconfirmed contact.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(time, forKey: .time)
        try c.encode(confidence, forKey: .confidence)
        if origin != .heard { try c.encode(origin, forKey: .origin) }
        if confirmed { try c.encode(confirmed, forKey: .confirmed) }
        try c.encodeIfPresent(loudnessDb, forKey: .loudnessDb)
    }
}
