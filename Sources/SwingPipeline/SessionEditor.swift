import Foundation
import SwingAudio
import SwingBiomech
import SwingCore
import SwingMedia
import SwingPose
import SwingStore

/// One correction of a session's contacts by the player (issue #27).
package struct ContactEdit: Codable, Sendable, Equatable {
    package enum Action: String, Codable, Sendable, CaseIterable {
        /// A hit the detector missed: a new contact at ``ContactEdit/time``, a shot whatever the wrist did.
        case add
        /// Not a hit (or not the player's): the nearest contact stops being a shot.
        case remove
        /// A contact the swing check (or the player) turned down becomes a shot again.
        case restore
    }

    package var action: Action
    /// Media time of the contact, seconds (for remove and restore: the contact's own time).
    package var time: Double
    /// When the edit was made (whole seconds).
    package var at: Date

    package init(action: Action, time: Double, at: Date = Date()) {
        self.action = action; self.time = time
        self.at = Date(timeIntervalSince1970: at.timeIntervalSince1970.rounded(.down))
    }
}

/// Edits a stored session's contacts and re-measures it **in place** (issue #27): the pose track the
/// session was measured on is kept with it, so removing or restoring a contact poses nothing, and adding
/// one poses only that contact's swing window from the session's video. The statistics, shots, rejected
/// contacts and the document are then stored as the session's next revision in one transaction.
///
/// The contacts a session shows are always its heard contacts with its edits applied in order
/// (``contacts(heard:edits:)``), so undo is dropping the last edit and measuring again.
package enum SessionEditor {
    /// Contacts closer than this to an edit's time are the contact it means, seconds.
    package static let matchTolerance = 0.1
    /// At most one contact per this many seconds of video, so a session cannot be filled with contacts.
    package static let minimumSpacing = 0.25

    /// What a change asks for.
    package enum Change: Sendable, Equatable {
        /// Apply one edit.
        case edit(ContactEdit)
        /// Take back the last edit.
        case undo
        /// Listen to the session's sound again at another sensitivity (and, for experts, other thresholds):
        /// new heard contacts, the player's edits applied to them where they still name a contact.
        case redetect(ContactSensitivity, DetectorThresholds? = nil)
        /// Listen to the session's sound again with a contact model learnt from the player's confirmed hits
        /// (their racket's sound, ``ContactModel``): new heard contacts, the edits applied as for ``redetect(_:_:)``,
        /// and the model's provenance kept as the session's ``SessionDocument/Session/contactModel``.
        case hear(ContactModel)
        /// Measure another person: the player pointed at themselves (``PlayerMark``, usually with the moment of
        /// the frame they tapped). Every contact's swing window is posed again following that person, as the
        /// analysis follows a mark (``AnalysisOptions/player``), and the mark is kept in the session, so later
        /// edits pose added windows the same way. The contact edits stay as they are; undo does not take this back
        /// (point again instead).
        case player(PlayerMark)
    }

    /// The two detection thresholds an expert may set beside the sensitivity (docs/contacts.md).
    package struct DetectorThresholds: Codable, Sendable, Equatable {
        /// Peak threshold × noise floor (``ContactDetectorParameters/peakThresholdFactor``), 1–20.
        package var peakThresholdFactor: Double?
        /// Minimum amplitude relative to the session's loud hits (``ContactDetectorParameters/minRelativeAmplitude``), 0–1.
        package var minRelativeAmplitude: Double?

        package init(peakThresholdFactor: Double? = nil, minRelativeAmplitude: Double? = nil) {
            self.peakThresholdFactor = peakThresholdFactor; self.minRelativeAmplitude = minRelativeAmplitude
        }

        /// `parameters` with these thresholds; throws a sentence for a value out of range.
        func apply(to parameters: ContactDetectorParameters) throws -> ContactDetectorParameters {
            var p = parameters
            if let f = peakThresholdFactor {
                guard f.isFinite, (1...20).contains(f) else { throw PipelineError(.invalidEdit, "The threshold factor must be 1 to 20.") }
                p.peakThresholdFactor = f
            }
            if let a = minRelativeAmplitude {
                guard a.isFinite, (0...1).contains(a) else { throw PipelineError(.invalidEdit, "The minimum relative amplitude must be 0 to 1.") }
                p.minRelativeAmplitude = a
            }
            return p
        }

        var isEmpty: Bool { peakThresholdFactor == nil && minRelativeAmplitude == nil }
    }

    /// Applies `changes` in order to session `id` and stores the result as **one** new revision (so a batch
    /// is all stored or, on any refusal, none of it).
    /// - Parameters:
    ///   - mediaPath: The session's video, needed only when a contact is added (its window is posed);
    ///     `nil` uses the stored path.
    ///   - analyzer: Poses an added contact's window, or every window for ``Change/player(_:)`` (when `nil`, the
    ///     default analyzer following the session's player, ``SessionDocument/Session/player``).
    /// - Returns: The new document's bytes.
    /// - Throws: ``PipelineError`` `.invalidEdit` with one sentence (outside the video, no such contact,
    ///   nothing to undo, too many contacts, a session stored before editing existed), `StoreError`
    ///   (`.notFound`, `.conflict` when another edit was stored first), media and pose errors when an added
    ///   window cannot be posed. Nothing is stored when it throws.
    package static func apply(_ changes: [Change], toSession id: Int64, in db: any Store, mediaPath: String? = nil,
                             analyzer: SessionAnalyzer? = nil) async throws -> Data {
        guard let record = try await db.sessionRecord(id: id), let document = try await SessionArchive.document(id: id, in: db) else {
            throw StoreError.notFound("There is no session with id \(id) (see `swingmaster sessions list`).")
        }
        guard let stored = try await db.sessionTrack(id: id) else {
            throw PipelineError(.invalidEdit, "Session \(id) was analysed before editing existed; analyse its video again to edit it.")
        }
        let s = document.session
        var heard = s.heardContacts ?? Self.heardContacts(of: s)
        var edits = s.edits ?? []
        var sensitivity = s.sensitivity
        var thresholds = s.detectorThresholds
        var player = s.player
        // What heard the contacts the document holds: a learnt model's provenance, or nil for the detector.
        var heardBy = s.contactModel
        var repose = false
        var dropped = 0
        // The swing check's verdicts as they are now: an edit is checked against what the player sees.
        var rejectedNow = Set((s.rejectedContacts ?? []).map(\.time))
        let limit = contactLimit(duration: s.duration)
        let adding = changes.filter { if case .edit(let e) = $0 { e.action == .add } else { false } }.count
        let present = s.shots.count + (s.rejectedContacts?.count ?? 0)
        guard present + adding <= limit else {
            throw PipelineError(.invalidEdit, "Session \(id) has room for at most \(limit) contacts (one per \(format(minimumSpacing)) s of video); it holds \(present) and \(adding) more were asked for.")
        }
        // The session's sound heard again by `options`' detector or model; edits that no longer name a
        // contact (the sound is heard differently now) are let go.
        let path = mediaPath ?? record.filePath
        func listen(_ options: AnalysisOptions) async throws {
            var options = options
            if s.start != nil || s.duration > 0 { options.range = TimeRange(start: s.start ?? 0, duration: s.duration) }
            let analyzer = try SessionAnalyzer(options: options)
            heard = try await BlockingWork.run("swingmaster.listen") { try analyzer.heardContacts(path: path) }
            let kept = edits.filter { edit in
                edit.action == .add || nearest(edit.time, in: heard + edits.filter { $0.action == .add }
                    .map { ContactEvent(time: $0.time, confidence: 1) }) != nil
            }
            dropped += edits.count - kept.count
            edits = kept
            rejectedNow = []
        }
        for change in changes {
            switch change {
            case .undo:
                guard !edits.isEmpty else { throw PipelineError(.invalidEdit, "Session \(id) has no edit to undo.") }
                edits.removeLast()
            case .redetect(let level, let expert):
                var options = AnalysisOptions()
                options.detector = try (expert ?? DetectorThresholds()).apply(to: level.apply(to: options.detector))
                try await listen(options)
                thresholds = expert.flatMap { $0.isEmpty ? nil : $0 }
                sensitivity = level == .normal ? nil : level
                heardBy = nil
            case .hear(let model):
                var options = AnalysisOptions()
                options.contactModel = model
                try await listen(options)
                thresholds = nil
                sensitivity = nil
                heardBy = model.trainedOn
            case .player(let mark):
                try check(mark, session: s)
                player = mark
                repose = true
            case .edit(let edit):
                let state = try contacts(heard: heard, edits: edits)
                try check(edit, state: state, rejected: rejectedNow, session: s)
                if edit.action == .restore, let i = nearest(edit.time, in: state.contacts + state.removed.map { ContactEvent(time: $0.time, confidence: $0.confidence) }) {
                    let all = state.contacts.map(\.time) + state.removed.map(\.time)
                    rejectedNow.remove(all[i])
                }
                if edit.action == .remove, let i = nearest(edit.time, in: state.contacts) { rejectedNow.insert(state.contacts[i].time) }
                edits.append(edit)
            }
        }
        let (contacts, removed) = try Self.contacts(heard: heard, edits: edits)

        // The pose track, with the windows of added contacts it does not cover posed now.
        var parameters = try BiomechParameters.fromJSON(stored.parameters)
        parameters.hand = s.hand
        var track = try TrackArchive.decode(stored.track)
        var videoFrames = stored.videoFrames
        // Stored sessions keep the delay they were measured with (and where it came from, which the who-hit
        // rule reads), so an edit measures every contact at the same offset and by the same rules.
        if parameters.soundDelayMs == nil { parameters.soundDelayMs = s.soundDelay?.ms ?? 0 }
        let delay = s.soundDelay ?? parameters.givenSoundDelay ?? .given(0)
        // Windows are posed following the person the player pointed at, when they did (else the biggest).
        var options = AnalysisOptions()
        options.biomech = parameters
        if let player { options.player = .marked(player) }
        func poser() throws -> SessionAnalyzer { try analyzer ?? SessionAnalyzer(options: options) }
        var notes: [String] = []
        if repose {
            // Another person: every contact's window posed again (a contact the player removed is posed when
            // restored), the old track let go.
            let instants = contacts.map { delay.instant(heard: $0.time) }
            let analyzer = try poser()
            let posed = try await BlockingWork.run("swingmaster.pose") { try analyzer.poseSamples(path: path, contactTimes: instants) }
            track = try PoseTrack(samples: posed.samples)
            videoFrames = posed.videoFrames
            notes = posed.notes
        } else {
            let uncovered = contacts.map { delay.instant(heard: $0.time) }.filter { tc in
                !track.samples.contains { abs($0.time - tc) <= 1.5 / max(s.fps, 1) }
            }
            if !uncovered.isEmpty {
                let analyzer = try poser()
                let added = try await BlockingWork.run("swingmaster.pose") { try analyzer.poseSamples(path: path, contactTimes: uncovered) }
                (track, videoFrames) = try merge(track: track, videoFrames: videoFrames, with: (added.samples, added.videoFrames))
            }
        }

        let result = BiomechAnalyzer.analyze(track: track, contacts: contacts, parameters: parameters, soundDelay: delay)
        let scale = (x: stored.poseToDisplayX, y: stored.poseToDisplayY)
        let sources = Dictionary(s.shots.compactMap { shot in shot.source.map { (shot.time, ($0, shot.visualOffsetMs)) } },
                                 uniquingKeysWith: { a, _ in a })
        var next = document
        next.session.shots = SessionDocument.documentShots(result, scale: scale, videoFrames: videoFrames) { sources[$0.time] }
        next.session.rejectedContacts = (result.rejected + removed).sorted { $0.time < $1.time }
        next.session.stats = result.stats
        next.session.heardContacts = heard
        next.session.edits = edits.isEmpty ? nil : edits
        next.session.sensitivity = sensitivity
        next.session.detectorThresholds = thresholds
        next.session.contactModel = heardBy
        next.session.contactsHeard = heard.count
        next.session.player = player
        if repose {
            // What the last pointing said about whom it found replaces what an earlier one said.
            next.session.warnings.removeAll { $0.hasPrefix(SessionAnalyzer.playerNotePrefix) }
            next.session.warnings += notes
        }
        if dropped > 0 {
            next.session.warnings.append("\(dropped) of your edits no longer matched a contact after listening again and \(dropped == 1 ? "was" : "were") let go.")
        }
        if edits.isEmpty, sensitivity == s.sensitivity, thresholds == s.detectorThresholds, next.session.heardContacts == Self.heardContacts(of: next.session) {
            next.session.heardContacts = nil
        }
        let frames = SessionAnalysis.shotFrames(result, track: track, videoFrames: videoFrames, hand: s.hand, scale: scale)
        let shots = zip(next.session.shots, frames).map { ShotRecord($0, frames: $1.isEmpty ? nil : $1) }
        let trackRecord = SessionTrackRecord(track: TrackArchive.encode(track), videoFrames: videoFrames,
                                             poseToDisplayX: scale.x, poseToDisplayY: scale.y, parameters: stored.parameters)
        let bytes = try next.jsonData()
        let text = String(decoding: bytes, as: UTF8.self)
        try await db.replaceSession(id: id, revision: record.revision, stats: result.stats, shots: shots, track: trackRecord) { text }
        return bytes
    }

    /// Stored session `id`'s contacts as the player left them (those heard, with the player's adds and
    /// removes applied; a contact the swing check rejected is still a contact), to learn a contact model
    /// from (`learn-contacts --session`).
    /// - Returns: the session's video, its analysed part, the contact times (media time), and whether the
    ///   player corrected anything.
    /// - Throws: `StoreError` `.notFound` for no such session; ``PipelineError`` `.invalidEdit` for a
    ///   damaged edit list.
    package static func confirmedContacts(id: Int64, in db: any Store) async throws
        -> (path: String, range: TimeRange, times: [Double], edited: Bool) {
        guard let record = try await db.sessionRecord(id: id), let document = try await SessionArchive.document(id: id, in: db) else {
            throw StoreError.notFound("There is no session with id \(id) (see `swingmaster sessions list`).")
        }
        let s = document.session
        let edits = s.edits ?? []
        let kept = try contacts(heard: s.heardContacts ?? heardContacts(of: s), edits: edits).contacts
        return (record.filePath, TimeRange(start: s.start ?? 0, duration: s.duration > 0 ? s.duration : nil),
                kept.map(\.time), !edits.isEmpty)
    }

    /// The contacts to measure (time order) and the ones the player removed, after `edits` on `heard`.
    /// - Throws: ``PipelineError`` `.invalidEdit` when an edit names no contact (a damaged edit list).
    package static func contacts(heard: [ContactEvent], edits: [ContactEdit]) throws -> (contacts: [ContactEvent], removed: [RejectedContact]) {
        var list = heard.map { (event: $0, removed: false) }
        for edit in edits {
            switch edit.action {
            case .add:
                list.append((ContactEvent(time: edit.time, confidence: 1, origin: .added, confirmed: true), false))
            case .remove, .restore:
                guard let i = nearest(edit.time, in: list.map(\.event)) else {
                    throw PipelineError(.invalidEdit, "There is no contact within \(format(matchTolerance)) s of \(format(edit.time)) s.")
                }
                if edit.action == .restore {
                    list[i].removed = false
                    list[i].event.confirmed = true
                } else if list[i].event.origin == .added {
                    list.remove(at: i)
                } else {
                    list[i].removed = true
                }
            }
        }
        let kept = list.filter { !$0.removed }.map(\.event).sorted { $0.time < $1.time }
        let removed = list.filter(\.removed).map {
            RejectedContact(time: $0.event.time, confidence: $0.event.confidence, origin: $0.event.origin, kind: .removed,
                            reason: "Removed by the player.")
        }
        return (kept, removed)
    }

    /// Refuses an edit that cannot apply to the session as it is now, in one sentence.
    static func check(_ edit: ContactEdit, state: (contacts: [ContactEvent], removed: [RejectedContact]),
                      rejected: Set<Double>, session s: SessionDocument.Session) throws {
        let start = s.start ?? 0, end = start + s.duration
        guard edit.time.isFinite, edit.time >= start, edit.time <= end else {
            throw PipelineError(.invalidEdit, "\(edit.time.isFinite ? format(edit.time) + " s" : "That time") is outside the video (\(format(start))–\(format(end)) s).")
        }
        switch edit.action {
        case .add:
            if nearest(edit.time, in: state.contacts + state.removed.map { ContactEvent(time: $0.time, confidence: $0.confidence) }) != nil {
                throw PipelineError(.invalidEdit, "There is already a contact within \(format(matchTolerance)) s of \(format(edit.time)) s; restore or remove it instead.")
            }
            let limit = contactLimit(duration: s.duration)
            guard state.contacts.count + state.removed.count < limit else {
                throw PipelineError(.invalidEdit, "Session \(s.id.map(String.init) ?? "") already holds \(limit) contacts, one per \(format(minimumSpacing)) s of video; remove some before adding more.")
            }
        case .remove:
            guard let i = nearest(edit.time, in: state.contacts), !rejected.contains(state.contacts[i].time) else {
                throw PipelineError(.invalidEdit, "There is no shot within \(format(matchTolerance)) s of \(format(edit.time)) s to remove.")
            }
        case .restore:
            let candidates = state.contacts.filter { rejected.contains($0.time) }
                + state.removed.map { ContactEvent(time: $0.time, confidence: $0.confidence) }
            guard nearest(edit.time, in: candidates) != nil else {
                throw PipelineError(.invalidEdit, "There is no rejected contact within \(format(matchTolerance)) s of \(format(edit.time)) s to restore.")
            }
        }
    }

    /// Refuses a mark that is not in the picture or not in the session's analysed part, in one sentence.
    static func check(_ mark: PlayerMark, session s: SessionDocument.Session) throws {
        if let problem = mark.problem { throw PipelineError(.invalidEdit, problem) }
        let start = s.start ?? 0, end = start + s.duration
        if let t = mark.time, t < start - 0.5 || t > end + 0.5 {
            throw PipelineError(.invalidEdit, "\(format(t)) s is outside the video (\(format(start))–\(format(end)) s); point at yourself in a frame of the session.")
        }
    }

    /// The heard contacts of a session never edited: its shots' and rejected contacts' times.
    static func heardContacts(of s: SessionDocument.Session) -> [ContactEvent] {
        let fromShots = s.shots.filter { ($0.origin ?? .heard) == .heard }.map { ContactEvent(time: $0.time, confidence: $0.confidence) }
        let fromRejected = (s.rejectedContacts ?? []).filter { $0.origin == .heard }.map { ContactEvent(time: $0.time, confidence: $0.confidence) }
        return (fromShots + fromRejected).sorted { $0.time < $1.time }
    }

    /// Index of the contact nearest `time` within ``matchTolerance`` (the earlier on a tie).
    static func nearest(_ time: Double, in contacts: [ContactEvent]) -> Int? {
        var best: Int?
        for (i, c) in contacts.enumerated() where abs(c.time - time) <= matchTolerance {
            if let b = best, abs(contacts[b].time - time) <= abs(c.time - time) { continue }
            best = i
        }
        return best
    }

    /// `track` with `added` samples at times it does not have yet (the stored ones win), time order.
    static func merge(track: PoseTrack, videoFrames: [Int], with added: (samples: [PoseSample], videoFrames: [Int]))
        throws -> (PoseTrack, [Int]) {
        var rows = zip(track.samples, videoFrames.count == track.samples.count ? videoFrames : Array(repeating: -1, count: track.samples.count)).map { ($0, $1) }
        let known = Set(track.samples.map(\.time))
        for (sample, frame) in zip(added.samples, added.videoFrames) where !known.contains(sample.time) { rows.append((sample, frame)) }
        rows.sort { $0.0.time < $1.0.time }
        return (try PoseTrack(samples: rows.map(\.0)), rows.map(\.1))
    }

    /// The most contacts a session of `duration` seconds may hold.
    static func contactLimit(duration: Double) -> Int { Int((max(duration, 0) / minimumSpacing).rounded(.down)) + 1 }

    /// Seconds as a sentence shows them: two decimals, or three significant digits for an absurd value
    /// (a time of 1e308 s is not printed as 309 digits).
    static func format(_ seconds: Double) -> String {
        abs(seconds) < 1e6 ? String(format: "%.2f", seconds) : String(format: "%.3g", seconds)
    }
}
