/// What a shot's contact was judged, shared by the biomechanics, the session document and the store
/// (one type each; the store's columns hold their raw values, checked by the schema).

/// Where the forward contact distance puts the shot (thresholds: `BiomechParameters` in SwingBiomech).
package enum ContactClassification: String, Sendable, Codable, CaseIterable {
    /// Forward distance below the late threshold: the ball was met behind the ideal point.
    case late
    /// Between the thresholds, boundaries included.
    case optimal
    /// Forward distance above the early threshold.
    case early

    /// Classifies a forward distance in centimetres (boundaries count as optimal).
    package static func classify(forwardCm: Double, lateBelowCm: Double, earlyAboveCm: Double) -> ContactClassification {
        if forwardCm < lateBelowCm { return .late }
        if forwardCm > earlyAboveCm { return .early }
        return .optimal
    }
}

/// Where a contact came from: heard by the contact detector, or added by the player (issue #27).
package enum ContactOrigin: String, Sendable, Codable, CaseIterable {
    /// Found in the sound by the contact detector.
    case heard
    /// Added by the player (web app's timeline or shot view, `sessions edit --add-contact`).
    case added
}

/// Why a contact is not a shot (``RejectedContact`` in SwingBiomech).
package enum RejectionKind: String, Sendable, Codable, CaseIterable {
    /// The dominant wrist did not swing around the contact (the swing check, docs/analysis.md).
    case noSwing
    /// The player could not be measured around it (too few posed frames): whether they swung is unknown,
    /// so it is not counted until the player counts it.
    case unmeasured
    /// Much quieter than the player's hits and the player was not hitting at its instant: the opponent's
    /// hit, a bounce or another court (``BiomechParameters/opponentQuieterDb``).
    case opponent
    /// The pose measured there is not a body that can hit (the pelvis below the feet, a wrist under the
    /// ground or beyond any reach, an impossible speed): usually another
    /// person or a mis-detected pose, so its numbers are not shown (``BodyCheck`` in SwingBiomech).
    case implausible
    /// Too soon after (or before) a surer hit sound: one swing makes one hit, so this sound was a squeak, a
    /// grunt or a bounce (``BiomechParameters/minHitIntervalS`` in SwingBiomech).
    case tooSoon
    /// The player removed it.
    case removed
}

/// Whether a shot could be measured.
package enum ShotStatus: String, Sendable, Codable, CaseIterable {
    case ok
    /// The contact was outside the track or no frame of its swing window had a pose; excluded from stats.
    case noPerson
}

/// Where a shot's contact came from when the session was analysed with a visual detector.
package enum ContactSource: String, Sendable, Codable, CaseIterable {
    /// Heard and seen within the fusion tolerance.
    case both
    /// Heard only.
    case audio
    /// Seen only (confident enough alone).
    case visual
}

/// The kind of stroke a shot was, decided from the 3D pose over the swing (`BiomechParameters` holds the
/// rules' parameters; docs/analysis.md, "Stroke type"). Left-handers are mirrored like every other measure.
package enum StrokeType: String, Sendable, Codable, CaseIterable {
    /// Met below the overhead line on the hitting side of the body.
    case forehand
    /// Met below the overhead line on the other side of the body (one- or two-handed).
    case backhand
    /// Met overhead, the wrist well above the shoulders: serves and smashes.
    case serve
}
