import Foundation
import SwingAudio
import SwingCore
import SwingMedia
import SwingStore

/// A contact model learnt from one of the player's sessions — "your racket's sound" — as the API and the
/// pages show it (`GET /api/racket-sounds`). The model itself stays in the store.
package struct RacketSound: Codable, Sendable, Equatable {
    package var id: Int64
    /// What the player sees it called: the video it was learnt from, unless they named it.
    package var name: String
    package var createdAt: Date
    /// The session it was learnt from (`nil` when that session was in another store); it may be deleted since.
    package var sessionId: Int64?
    /// Confirmed contacts it learnt from.
    package var contacts: Int
    /// F1 (±50 ms) of the model on the session it learnt from.
    package var f1: Double

    init(_ record: ContactModelRecord) {
        id = record.id ?? 0; name = record.name; createdAt = record.createdAt; sessionId = record.sessionId
        contacts = record.contacts; f1 = record.f1
    }
}

extension ContactModel.Recording {
    /// The mono audio of the video or audio file at `path` (its `range`), checked against `limits` as an
    /// analysis checks it, with `contacts` (media time) moved to sample time; contacts outside the audio
    /// are left out. What `learn-contacts` and the results page's "Learn my racket's sound" learn from.
    /// - Throws: The media checks' ``MediaError`` (no audio, too short or long, unreadable).
    package static func of(media path: String, range: TimeRange?, limits: MediaLimits = MediaLimits(),
                          contacts: [Double]) throws -> ContactModel.Recording {
        let info = try MediaProbe.probe(path)
        _ = try MediaValidator.validate(info, limits: limits, requireAudio: true, requireVideo: false, range: range)
        let pcm = try AudioExtractor.extract(path, sampleRate: AudioExtractor.analysisRate(for: info.audio), range: range)
        _ = try MediaValidator.checkDecoded(pcm.duration, info: info, limits: limits, range: range)
        let times = contacts.map { $0 - pcm.startTime }.filter { $0 >= 0 && $0 <= pcm.duration }
        return ContactModel.Recording(samples: pcm.samples, sampleRate: Double(pcm.sampleRate), contacts: times)
    }
}

extension ContactModel {
    /// The model of racket sound `id` kept in `store` (learnt on a results page or by `learn-contacts --keep`).
    /// - Throws: `StoreError` `.notFound` when there is none; ``AudioError`` `.contactModelUnreadable` when it
    ///   is damaged or made for other features.
    package static func racketSound(_ id: Int64, in store: any Store) async throws -> ContactModel {
        guard let record = try await store.contactModel(id: id) else {
            throw StoreError.notFound("There is no racket sound \(id) (see `swingmaster learn-contacts --list`).")
        }
        return try decode(Data(record.model.utf8), name: "The racket sound \"\(record.name)\"")
    }

    /// Keeps this model in `store` as a racket sound named `name` (control characters and surrounding space
    /// dropped, at most ``MediaLibrary/racketSoundNameLimit`` characters), learnt from `session` when it was.
    /// - Returns: What the pages and `learn-contacts --list` show of it.
    package func keep(as name: String, session: Int64?, in store: any Store) async throws -> RacketSound {
        let clean = String(String.UnicodeScalarView(name.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }))
            .trimmingCharacters(in: .whitespacesAndNewlines)
        var record = ContactModelRecord(name: String(clean.prefix(MediaLibrary.racketSoundNameLimit)), sessionId: session,
                                        contacts: trainedOn.contacts, f1: trainedOn.f1,
                                        model: String(decoding: try data(), as: UTF8.self))
        record.id = try await store.saveContactModel(record)
        return RacketSound(record)
    }
}

extension MediaLibrary {
    /// The longest name a racket sound keeps, characters.
    package static let racketSoundNameLimit = 80

    /// Every racket sound the player had learnt, newest first.
    package func racketSounds() async throws -> [RacketSound] {
        try await store.contactModels().map(RacketSound.init)
    }

    /// Racket sound `id`, `nil` when there is none.
    package func racketSound(id: Int64) async throws -> RacketSound? {
        try await store.contactModel(id: id).map(RacketSound.init)
    }

    /// The model of racket sound `id` (``ContactModel/racketSound(_:in:)``).
    package func racketSoundModel(id: Int64) async throws -> ContactModel { try await ContactModel.racketSound(id, in: store) }

    /// Keeps `model` as a racket sound named `name` (``ContactModel/keep(as:session:in:)``).
    package func keep(_ model: ContactModel, as name: String, session: Int64?) async throws -> RacketSound {
        try await model.keep(as: name, session: session, in: store)
    }

    /// Forgets racket sound `id` (sessions heard with it keep what they heard); whether there was one.
    package func removeRacketSound(id: Int64) async throws -> Bool {
        try await store.removeContactModel(id: id)
    }

    /// Learns what the player's hits sound like from session `id`'s contacts as they left them (their adds
    /// and removes applied) against every other sound in its video, and keeps it as a racket sound named
    /// `name` (by default after the video).
    /// - Throws: `StoreError` `.notFound` for no such session; ``AudioError`` `.tooFewToLearn` (422) with a
    ///   sentence when the session holds fewer than ``ContactModel/minimumContacts`` contacts; the media
    ///   checks' errors when its video is gone or unreadable; ``PipelineError`` `.cancelled`.
    package func learnRacketSound(fromSession id: Int64, name: String? = nil) async throws -> RacketSound {
        let confirmed = try await SessionEditor.confirmedContacts(id: id, in: store)
        guard confirmed.times.count >= ContactModel.minimumContacts else {
            throw AudioError(.tooFewToLearn, "Swingmaster learns your racket's sound from at least \(ContactModel.minimumContacts) hits; session \(id) has \(confirmed.times.count). Learn it from a longer session, or add the hits it missed first.")
        }
        let fileName = try await store.sessionRecord(id: id)?.fileName ?? "session \(id)"
        let model: ContactModel
        do {
            model = try await BlockingWork.run("swingmaster.learn-racket-sound") { () throws -> ContactModel in
                let recording = try ContactModel.Recording.of(media: confirmed.path, range: confirmed.range, contacts: confirmed.times)
                if Cancellation.isRequested { throw CancellationError() }
                return try ContactModel.train([recording])
            }
            try Task.checkCancellation()
        } catch is CancellationError {
            throw PipelineError.cancelled("learning", nothing: "kept")
        }
        let given = (name ?? "").trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))
        return try await model.keep(as: given.isEmpty ? fileName : (name ?? ""), session: id, in: store)
    }

    /// Session `id`'s sound heard again with racket sound `sound` (``SessionEditor/Change/hear(_:)``): the
    /// player's edits kept where they still name a contact. The edited session's document.
    /// - Throws: as ``contactModel(id:)`` when the racket sound is gone or damaged, then as
    ///   ``edit(session:_:)``.
    package func edit(session id: Int64, hearingWith sound: Int64) async throws -> Data {
        try await edit(session: id, [.hear(try await contactModel(id: sound))])
    }

    /// The contact model of racket sound `id`, for a job that asked to be heard with it.
    /// - Throws: ``PipelineError`` `.invalidOptions` when it was deleted since; ``AudioError``
    ///   `.contactModelUnreadable` when the stored model is damaged or made for other features.
    func contactModel(id: Int64) async throws -> ContactModel {
        do {
            return try await ContactModel.racketSound(id, in: store)
        } catch let error as StoreError where error.kind == .notFound {
            throw PipelineError(.invalidOptions, "The racket sound this video was to be heard with (\(id)) was deleted before the analysis started; upload it again and choose another.")
        }
    }
}
