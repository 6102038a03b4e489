import SwingCore

/// The result of measuring a track: one entry per shot (in time order), the contacts that are not shots,
/// and the session statistics.
package struct MeasureResult: Sendable, Equatable {
    package var measured: [MeasuredShot]
    /// Contacts the swing check turned down (time order); in no statistic.
    package var rejected: [RejectedContact]
    package var stats: SessionStats
    /// The sound delay every shot's instant was taken with (given, or measured from the body).
    package var soundDelay: SoundDelay

    /// The shots, in time order.
    package var shots: [Shot] { measured.map(\.shot) }

    package init(measured: [MeasuredShot], rejected: [RejectedContact] = [], soundDelay: SoundDelay = .given(0)) {
        self.measured = measured
        self.rejected = rejected
        self.soundDelay = soundDelay
        stats = SessionStats(shots: measured.map(\.shot))
    }
}

/// A shot as measured on a track, with the track frames it was measured on.
package struct MeasuredShot: Sendable, Equatable {
    package var shot: Shot
    /// Track indices of the posed frames in the swing window (empty for a no-person shot).
    package var windowFrames: [Int]
}

/// Computes contact-point metrics from a pose track and contact times (issue 5, scope 2).
///
/// Edge cases, defined here because an independent reference recomputes these numbers:
/// - **Frames without a pose** (empty `world`, or hips with no horizontal separation) are skipped
///   everywhere: the ground median, interpolation, the speed indices (i ± k count posed frames only)
///   and the arc.
/// - **Contact outside the track** (t_c before the first or after the last frame of the track, posed
///   or not) or **no posed frame in the window** → the shot is `noPerson` and left out of the stats.
/// - **Contact exactly on a frame** → that frame's values (the interpolation weight is 0).
/// - **Only one side of t_c posed inside the window** (e.g. a one-frame window) → the nearest posed window
///   frame's values are held; nothing is extrapolated.
/// - **Speed**: i = the posed frame nearest t_c (the earlier on a tie); indices i ± k clamped to the posed
///   frames of the track; `nil` if they clamp to the same frame.
/// - **Left-handers**: wrist 15 and h = −r, so a mirrored stroke (x → −x, left/right landmarks swapped)
///   gives identical numbers.
/// - **Swing check**: a measured contact whose ``Shot/peakWristSpeedCmS`` is below
///   ``BiomechParameters/swingMinSpeedCmS`` is not a shot but a ``RejectedContact``, unless the player
///   confirmed it (``ContactEvent/confirmed``) or the check is off; a contact whose peak cannot be taken
///   (too few posed frames around it) is not counted either (``RejectionKind/unmeasured``), and a much
///   quieter contact without the player hitting at its instant is the opponent's (``turnDown``), and of two
///   shots closer than ``BiomechParameters/minHitIntervalS`` only the surer hit sound is counted
///   (``OneSwingOneHit``). Shots are numbered after the check.
package enum BiomechAnalyzer {
    /// Measures every contact in `contacts` on `track`.
    /// - Parameters:
    ///   - track: The validated pose track.
    ///   - contacts: Contact events; measured in time order and numbered from 1.
    ///   - parameters: Thresholds and options (should satisfy ``BiomechParameters/problem`` == nil;
    ///     out-of-range values are clamped to their nearest usable value).
    ///   - soundDelay: A delay to keep as it is (an edited session's, measured when it was analysed);
    ///     without it the delay is ``BiomechParameters/soundDelayMs`` when given, else measured from the
    ///     wrist at the contacts (``SoundDelayEstimator``). Every shot is measured at its instant
    ///   ``SoundDelay/instant(heard:)``.
    /// - Returns: Per-shot metrics, the session statistics and the delay used.
    /// - Complexity: O(frames + contacts · (window frames + log frames)).
    package static func analyze(track: PoseTrack, contacts: [ContactEvent], parameters: BiomechParameters,
                               soundDelay: SoundDelay? = nil) -> MeasureResult {
        if parameters.slowMotion != 1, let clock = RealClock(slowMotion: parameters.slowMotion) {
            return clock.analyze(track: track, contacts: contacts, parameters: parameters, soundDelay: soundDelay)
        }
        // Each contact is measured on the person posed at it, never on another whose frames lie in its window.
        let people = PosedPeople(track: track, hand: parameters.hand)
        let ordered = contacts.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        let delay = soundDelay ?? parameters.givenSoundDelay
            ?? SoundDelayEstimator.estimate(contacts: ordered, people: people, parameters: parameters)
        let view = CameraView.of(people.all, parameters: parameters)
        var kept: [MeasuredShot] = [], rejected: [RejectedContact] = []
        for contact in ordered {
            let posed = people.frames(near: delay.instant(heard: contact.time))
            var m = measure(contact: contact, index: kept.count + 1, track: track, posed: posed, delay: delay,
                            view: view, parameters: parameters)
            // Never an impossible number: a pose no body can take is not measured, whatever the player confirmed.
            if parameters.bodyCheck, let problem = BodyCheck.problem(shot: m.shot, tc: m.shot.contactTime, posed: posed) {
                rejected.append(RejectedContact(time: contact.time, confidence: contact.confidence, origin: contact.origin,
                                                kind: .implausible, reason: BodyCheck.reason(problem),
                                                peakWristSpeedCmS: m.shot.peakWristSpeedCmS))
                continue
            }
            if parameters.swingCheck, !contact.confirmed,
               let turnedDown = turnDown(contact, shot: m.shot, delay: delay, posed: posed, parameters: parameters) {
                rejected.append(turnedDown)
                continue
            }
            m.shot.index = kept.count + 1
            kept.append(m)
        }
        if parameters.swingCheck, parameters.minHitIntervalS > 0 {
            let split = OneSwingOneHit.apply(kept, interval: parameters.minHitIntervalS)
            kept = split.kept
            rejected = (rejected + split.turnedDown).sorted { $0.time < $1.time }
            for i in kept.indices { kept[i].shot.index = i + 1 }
        }
        return MeasureResult(measured: kept, rejected: rejected, soundDelay: delay)
    }

    /// The contacts a session's sound delay is measured on, most telling first: the heard contacts within
    /// ``BiomechParameters/opponentQuieterDb`` of the player's hits, loudest first. A caller that poses the
    /// video in passes (``SessionAnalyzer``) poses these first, a few at a time, around their heard times and
    /// the delay range before them (``measureSoundDelay(track:contacts:parameters:)``), and every other contact
    /// only around its instant once the delay is known.
    package static func soundDelayCandidates(_ contacts: [ContactEvent], parameters: BiomechParameters) -> [ContactEvent] {
        SoundDelayEstimator.candidates(contacts, parameters: parameters)
    }

    /// The session's sound delay measured from the wrist at `contacts` (heard times) in `track`, as
    /// ``analyze(track:contacts:parameters:soundDelay:)`` measures it when no delay is given; the track needs
    /// each contact's delay range posed (``BiomechParameters/soundDelayRangeMs`` before its heard time).
    package static func measureSoundDelay(track: PoseTrack, contacts: [ContactEvent], parameters: BiomechParameters) -> SoundDelay {
        var p = parameters
        p.soundDelayMs = nil
        return analyze(track: track, contacts: contacts, parameters: p).soundDelay
    }

    /// The swing check and who-hit (docs/analysis.md, "Swing check"), every cue together: a contact is
    /// turned down when the wrist did not swing around it (``RejectionKind/noSwing``), when the player could
    /// not be measured around it (``RejectionKind/unmeasured``: not counted, one tap counts it), and when
    /// it was much quieter than the player's hits and the body does not show the player hitting at its
    /// instant (``RejectionKind/opponent``). A no-person shot stays a shot with no metrics.
    static func turnDown(_ contact: ContactEvent, shot: Shot, delay: SoundDelay, posed: [FrameMeasure],
                         parameters p: BiomechParameters) -> RejectedContact? {
        guard shot.status == .ok else { return nil }
        let quieter = contact.loudnessDb.flatMap { $0 <= -p.opponentQuieterDb ? -$0 : nil }
        func turned(_ kind: RejectionKind, _ reason: String) -> RejectedContact {
            RejectedContact(time: contact.time, confidence: contact.confidence, origin: contact.origin, kind: kind,
                            reason: reason, peakWristSpeedCmS: shot.peakWristSpeedCmS)
        }
        let opponent = quieter.map { "Probably your opponent: \(Int($0.rounded())) dB quieter than your hits, and " }
        guard let peak = shot.peakWristSpeedCmS else {
            return opponent.map { turned(.opponent, $0 + "you could not be seen swinging.") }
                ?? turned(.unmeasured, "Not counted: you could not be seen well enough around this sound to tell whether you swung. Count it if it was your hit.")
        }
        if peak < p.swingMinSpeedCmS {
            return opponent.map { turned(.opponent, $0 + "you were not swinging (your wrist reached \(Int(peak.rounded())) cm/s; a swing reaches \(Int(p.swingMinSpeedCmS.rounded())))." ) }
                ?? turned(.noSwing, noSwingReason(peak: peak, parameters: p))
        }
        if let opponent, delay.source != .given, !swingsAtInstant(contact, delay: delay, posed: posed, parameters: p) {
            return turned(.opponent, opponent + "your wrist was not reaching for the ball when it was hit (you were moving, not hitting).")
        }
        return nil
    }

    /// Whether the wrist reaches for the ball at `contact`'s instant: the contact's own evidence of the delay
    /// (its reach, ``SoundDelayEstimator``) agrees with the session's within the estimator's outlier limit; when
    /// the session's delay could not be measured, whether the wrist reaches at all in the delay range before it.
    static func swingsAtInstant(_ contact: ContactEvent, delay: SoundDelay, posed: [FrameMeasure], parameters p: BiomechParameters) -> Bool {
        guard let own = SoundDelayEstimator.delay(heard: contact.time, posed: posed, parameters: p) else { return false }
        if delay.source == .none { return true }
        let limit = max(p.soundDelayOutlierMs, 3 * (delay.spreadMs ?? 0))
        return abs(own * 1000 - delay.ms) <= limit
    }

    /// How hard the person in `track` swings during `spans` (media time: the moments a hit is expected): the swing
    /// check's speed (``peakSwingSpeed(posed:tc:parameters:)``, cm/s on the real clock) at its largest within the
    /// swing window of any span; `nil` when no span has posed frames around it. The pose stage asks it of each
    /// person in view to keep the one who hits.
    package static func swingEvidence(track: PoseTrack, spans: [ClosedRange<Double>], parameters: BiomechParameters) -> Double? {
        let posed = track.samples.enumerated().compactMap { i, s in FrameMeasure(sample: s, trackIndex: i, hand: parameters.hand) }
        var p = parameters
        // A slow-motion file's clock runs k times slower: its windows are k times longer and its speeds k times lower.
        let k = max(1, parameters.slowMotion)
        p.swingSpeedSpan *= k; p.swingSpeedAveraging *= k
        var best: Double?
        for span in spans {
            p.swingWindow = parameters.swingWindow * k + (span.upperBound - span.lowerBound) / 2
            if let v = peakSwingSpeed(posed: posed, tc: (span.lowerBound + span.upperBound) / 2, parameters: p) {
                best = max(best ?? 0, v * k)
            }
        }
        return best
    }

    /// The sentence a player reads for a contact without a swing.
    static func noSwingReason(peak: Double, parameters p: BiomechParameters) -> String {
        let window = String(format: "%.2f", p.swingWindow)
        return "No swing: the wrist moved at most \(Int(peak.rounded())) cm/s within \(window) s of the contact; "
            + "a swing reaches \(Int(p.swingMinSpeedCmS.rounded())) cm/s."
    }

    /// The swing check's measure (docs/analysis.md, "Swing check"): the largest, over posed frames j with
    /// |t_j − t_c| ≤ window, of |W̄(t_j + s) − W̄(t_j − s)| / (t̄(t_j + s) − t̄(t_j − s)), where W̄(t) and t̄(t)
    /// are the mean wrist-from-pelvis vector and mean time of the posed frames within `averaging` of t; cm/s.
    /// `nil` when no frame has posed frames at both ends.
    static func peakSwingSpeed(posed: [FrameMeasure], tc: Double, parameters p: BiomechParameters) -> Double? {
        guard !posed.isEmpty else { return nil }
        let span = p.swingSpeedSpan, avg = p.swingSpeedAveraging
        // Mean (vector, time) of the posed frames within `avg` of t.
        func mean(at t: Double) -> (Vec3, Double)? {
            var i = firstIndex(in: posed, atOrAfter: t - avg)
            var sum = Vec3.zero, time = 0.0, n = 0
            while i < posed.count, posed[i].time <= t + avg {
                sum = sum + posed[i].wristFromPelvis; time += posed[i].time; n += 1; i += 1
            }
            return n > 0 ? (sum * (1 / Double(n)), time / Double(n)) : nil
        }
        var best: Double?
        var j = firstIndex(in: posed, atOrAfter: tc - p.swingWindow)
        while j < posed.count, posed[j].time <= tc + p.swingWindow {
            let t = posed[j].time
            if let (a, ta) = mean(at: t - span), let (b, tb) = mean(at: t + span), tb > ta {
                let v = (b - a).length / (tb - ta) * 100
                if v > (best ?? -1) { best = v }
            }
            j += 1
        }
        return best
    }

    /// Position of the first element of `posed` (sorted by time) with time ≥ t; `posed.count` when none.
    static func firstIndex(in posed: [FrameMeasure], atOrAfter t: Double) -> Int {
        var lo = 0, hi = posed.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if posed[mid].time < t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    static func measure(contact: ContactEvent, index: Int, track: PoseTrack, posed: [FrameMeasure],
                        delay: SoundDelay, view: CameraView = .unknown, parameters p: BiomechParameters) -> MeasuredShot {
        let tc = delay.instant(heard: contact.time)
        var shot = Shot(index: index, time: contact.time, contactTime: tc, confidence: contact.confidence,
                        origin: contact.origin, confirmed: contact.confirmed ? true : nil)
        let noPerson = MeasuredShot(shot: shot, windowFrames: [])
        guard let first = track.samples.first?.time, let last = track.samples.last?.time,
              tc >= first, tc <= last else { return noPerson }
        let lo = tc - max(p.windowBefore, 0), hi = tc + max(p.windowAfter, 0)
        let window = posed.enumerated().filter { $0.element.time >= lo && $0.element.time <= hi }
        guard !window.isEmpty else { return noPerson }

        let ground = median(window.map(\.element.lowestFoot))
        // Position in `posed` of the posed frame nearest t_c (earlier on a tie).
        let nearest = nearestIndex(in: posed, to: tc)

        let forward: Double, lateral: Double, wristUp: Double, shoulderUp: Double, side: Double, speedCentre: Int
        let angles: BodyAngles
        switch p.contactFrame {
        case .interpolate:
            let before = window.last { $0.element.time <= tc }?.element
            let after = window.first { $0.element.time >= tc }?.element
            switch (before, after) {
            case let (b?, a?) where a.time > b.time:
                let alpha = (tc - b.time) / (a.time - b.time)
                forward = lerp(b.forward, a.forward, alpha)
                lateral = lerp(b.lateral, a.lateral, alpha)
                wristUp = lerp(b.wristUp, a.wristUp, alpha)
                shoulderUp = lerp(b.shoulderUp, a.shoulderUp, alpha)
                side = lerp(view.handsSide(b), view.handsSide(a), alpha)
                angles = BodyAngles.lerp(b.angles, a.angles, alpha)
            case let (b?, _):
                (forward, lateral, wristUp, shoulderUp, angles) = (b.forward, b.lateral, b.wristUp, b.shoulderUp, b.angles)
                side = view.handsSide(b)
            case let (nil, a?):
                (forward, lateral, wristUp, shoulderUp, angles) = (a.forward, a.lateral, a.wristUp, a.shoulderUp, a.angles)
                side = view.handsSide(a)
            case (nil, nil):
                return noPerson   // unreachable: the window is not empty
            }
            speedCentre = nearest
        case .bestConfidence:
            let span = max(p.bestConfidenceSearchFrames, 0)
            let candidates = max(nearest - span, 0)...min(nearest + span, posed.count - 1)
            let best = candidates.min { a, b in
                let fa = posed[a], fb = posed[b]
                if fa.confidence != fb.confidence { return fa.confidence > fb.confidence }
                let da = abs(fa.time - tc), db = abs(fb.time - tc)
                if da != db { return da < db }
                return a < b
            } ?? nearest
            (forward, lateral, wristUp) = (posed[best].forward, posed[best].lateral, posed[best].wristUp)
            shoulderUp = posed[best].shoulderUp
            side = view.handsSide(posed[best])
            angles = posed[best].angles
            speedCentre = best
        }
        let backswing = window.map(\.element).filter { $0.time >= tc - p.backswingFrom && $0.time <= tc - p.backswingTo }
        let trunk = median(window.map(\.element.trunk))
        // The stroke's side across the court (``CameraView``); the lateral reported stays the pelvis frame's.
        let after = window.map(\.element).filter { $0.time > tc && $0.time <= tc + p.serveFallWithin }
        let comesDown: Bool? = after.isEmpty ? nil : after.contains { $0.wristUp <= $0.shoulderUp }
        let stroke = strokeType(lateral: side, aboveShoulders: wristUp - shoulderUp, trunk: trunk,
                                backswingLateral: backswing.map(view.side), comesDown: comesDown, parameters: p)
        let limits = p.thresholds(for: stroke, trunk: trunk)

        shot.status = .ok
        shot.contact = ContactPoint(forwardCm: forward * 100, lateralCm: lateral * 100, heightCm: (wristUp - ground) * 100)
        shot.groundCm = ground * 100
        shot.wristSpeedCmS = wristSpeed(posed: posed, centre: speedCentre, halfSpan: max(p.speedHalfSpan, 1))
        shot.stroke = stroke
        shot.classification = ContactClassification.classify(forwardCm: forward * 100, lateBelowCm: limits.lateBelowCm,
                                                             earlyAboveCm: limits.earlyAboveCm)
        shot.contactFrame = posed[speedCentre].trackIndex
        shot.arc = arc(window.map(\.element), ground: ground, parameters: p)
        shot.angles = angles.values.isEmpty ? nil : angles
        shot.angleRange = BodyAngleRange(window.map(\.element.angles))
        shot.peakWristSpeedCmS = peakSwingSpeed(posed: posed, tc: tc, parameters: p)
        shot.reachTime = SoundDelayEstimator.reachTime(heard: contact.time, posed: posed, parameters: p)
        return MeasuredShot(shot: shot, windowFrames: window.map(\.element.trackIndex))
    }

    /// The stroke type (docs/analysis.md, "Stroke type"): a serve when the wrist is at least
    /// ``BiomechParameters/serveAboveShoulderTrunks`` trunk lengths (`trunk`, the window's median) above the
    /// shoulders' mean height at contact, unless `comesDown` says it stayed above the shoulders for
    /// ``BiomechParameters/serveFallWithin`` after (`nil`: no posed frame there to say); otherwise a
    /// forehand when the hands' side at contact (`lateral`: both wrists, the racket's counted twice, ``CameraView/handsSide(_:)``)
    /// plus the racket wrist's mean side over the backswing is ≥ 0 (on the hitting side; across the court,
    /// ``CameraView/side(_:)``), else a backhand. Metres in, as ``FrameMeasure``.
    static func strokeType(lateral: Double, aboveShoulders: Double, trunk: Double, backswingLateral: [Double],
                           comesDown: Bool? = nil, parameters p: BiomechParameters) -> StrokeType {
        if p.isOverhead(aboveShoulders: aboveShoulders, trunk: trunk), comesDown ?? true { return .serve }
        let preparation = backswingLateral.isEmpty ? 0 : backswingLateral.reduce(0, +) / Double(backswingLateral.count)
        return lateral + preparation >= 0 ? .forehand : .backhand
    }

    /// |(W−P)(i+k) − (W−P)(i−k)| / (t(i+k) − t(i−k)) over posed frames, indices clamped; cm/s.
    static func wristSpeed(posed: [FrameMeasure], centre: Int, halfSpan: Int) -> Double? {
        let a = max(centre - halfSpan, 0), b = min(centre + halfSpan, posed.count - 1)
        guard b > a else { return nil }
        let dt = posed[b].time - posed[a].time
        guard dt > 0 else { return nil }
        return (posed[b].wristFromPelvis - posed[a].wristFromPelvis).length / dt * 100
    }

    /// Position of the element nearest `t` (earlier on a tie); `posed` is sorted by time and non-empty.
    static func nearestIndex(in posed: [FrameMeasure], to t: Double) -> Int {
        let lo = firstIndex(in: posed, atOrAfter: t)
        if lo == 0 { return 0 }
        if lo == posed.count { return posed.count - 1 }
        return (t - posed[lo - 1].time) <= (posed[lo].time - t) ? lo - 1 : lo
    }

    static func arc(_ frames: [FrameMeasure], ground: Double, parameters p: BiomechParameters) -> SwingArc {
        let smooth = { (values: [Double]) in
            GaussianSmoother.smooth(values, taps: p.arcSmoothingTaps, sigma: p.arcSmoothingSigmaFrames)
        }
        let f = smooth(frames.map { $0.forward * 100 })
        let l = smooth(frames.map { $0.lateral * 100 })
        let h = smooth(frames.map { ($0.wristUp - ground) * 100 })
        let body = frames.indices.map { ArcPoint(forwardCm: f[$0], lateralCm: l[$0], heightCm: h[$0], time: frames[$0].time) }
        let wrists = frames.compactMap(\.imageWrist)
        var image: [ImageArcPoint]?
        if wrists.count == frames.count {
            let x = smooth(wrists.map(\.x)), y = smooth(wrists.map(\.y))
            image = frames.indices.map { ImageArcPoint(x: x[$0], y: y[$0], time: frames[$0].time) }
        }
        return SwingArc(body: body, image: image)
    }

    static func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }

    /// Median; the mean of the two middle values for an even count (numpy's `median`).
    static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return 0 }
        let m = s.count / 2
        return s.count % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2
    }
}
