import SwingCore

/// Measures a slow-motion session on the real clock (``BiomechParameters/slowMotion``): a file filmed at
/// 240 fps and played at 30 shows each swing 8× slower, so its speeds would read 8× too low and a
/// swing window of 0.25 s would hold 31 ms of the real swing. The track and contacts are brought to the real
/// clock (times ÷ the factor), measured with the real-time rules, and every time in the result is taken back
/// to the video's clock (× the factor), so shots still point at the video's frames. Positions, angles and
/// frame numbers do not depend on the clock; speeds are then real.
struct RealClock {
    /// How many times slower the video plays than it was filmed.
    let factor: Double

    /// `nil` for a factor that is not a usable number above 0.
    init?(slowMotion: Double) {
        guard slowMotion.isFinite, slowMotion > 0 else { return nil }
        factor = slowMotion
    }

    func analyze(track: PoseTrack, contacts: [ContactEvent], parameters: BiomechParameters,
                 soundDelay: SoundDelay?) -> MeasureResult {
        let samples = track.samples.map { s in
            PoseSample(time: s.time / factor, world: s.world, image: s.image, visibility: s.visibility, score: s.score)
        }
        // Dividing strictly increasing times by a positive factor keeps them strictly increasing.
        guard let realTrack = try? PoseTrack(samples: samples) else { return MeasureResult(measured: []) }
        var p = parameters
        p.slowMotion = 1
        p.soundDelayMs = parameters.soundDelayMs.map { $0 / factor }
        let heard = contacts.map { c -> ContactEvent in var c = c; c.time /= factor; return c }
        let real = BiomechAnalyzer.analyze(track: realTrack, contacts: heard, parameters: p,
                                           soundDelay: soundDelay.map { scaled($0, by: 1 / factor) })
        var measured = real.measured
        for i in measured.indices { measured[i].shot = videoClock(measured[i].shot) }
        var rejected = real.rejected
        for i in rejected.indices { rejected[i].time *= factor }
        return MeasureResult(measured: measured, rejected: rejected, soundDelay: scaled(real.soundDelay, by: factor))
    }

    /// `shot` with its times on the video's clock.
    private func videoClock(_ shot: Shot) -> Shot {
        var s = shot
        s.time *= factor
        s.contactTime *= factor
        s.reachTime = s.reachTime.map { $0 * factor }
        if var arc = s.arc {
            for i in arc.body.indices { arc.body[i].time *= factor }
            if let image = arc.image { arc.image = image.map { var p = $0; p.time *= factor; return p } }
            s.arc = arc
        }
        return s
    }

    /// `delay` with its milliseconds multiplied by `k`.
    private func scaled(_ delay: SoundDelay, by k: Double) -> SoundDelay {
        var d = delay
        d.ms *= k
        d.spreadMs = d.spreadMs.map { $0 * k }
        return d
    }
}
