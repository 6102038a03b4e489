import Foundation
import Testing
import SwingAudio
import SwingCore
@testable import SwingPipeline
import SwingStore
import SwingTestSupport

/// The upload form's choices as one request (issue #40): what the server queues is what the job runner
/// analyses, through the job's columns, for every combination of choices.
struct AnalysisRequestTests {
    /// Every combination of hand, part of the video, swing check, sensitivity, player mark and racket sound.
    static var requests: [AnalysisRequest] {
        var out: [AnalysisRequest] = []
        for hand in [nil] + Hand.allCases.map(Optional.some) {
            for (start, duration) in [(nil, nil), (12.5, nil), (nil, 30.0), (0.0, 0.25)] as [(Double?, Double?)] {
                for swingCheck in [true, false] {
                    for sensitivity in ContactSensitivity.allCases {
                        for player in [nil, PlayerMark(x: 0.25, y: 0.75, time: nil), PlayerMark(x: 0, y: 1, time: 3.5)] {
                            for racketSound in [nil, 3] as [Int64?] {
                                out.append(AnalysisRequest(hand: hand, start: start, duration: duration, swingCheck: swingCheck,
                                                           sensitivity: sensitivity, player: player, racketSound: racketSound))
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    @Test("A request survives the job's columns and a round trip through the store, and gives the options it asks for")
    func aRequestSurvivesTheJob() async throws {
        let dir = try TestFiles.temporaryDirectory("analysis-request")
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = try AppDatabase.open(file: dir.appendingPathComponent("s.sqlite"))
        for request in Self.requests {
            let queued = try await db.enqueueJob(JobRecord(upload: "/m/a.mp4", sha256: String(repeating: "a", count: 64),
                                                           fileName: "a.mp4", request: request, warnings: ["Below 720p."]))
            let id = try #require(queued.id)
            let stored = try #require(try await db.job(id: id))
            #expect(stored.request == request)
            #expect(stored.warnings == ["Below 720p."])

            let hand = request.hand ?? .left
            let options = request.options(hand: hand)
            #expect(options.biomech.hand == hand && options.biomech.swingCheck == request.swingCheck)
            #expect(options.biomech.soundDelayMs == nil, "the server measures the delay from the body")
            #expect(options.range == request.range)
            #expect((options.range == nil) == (request.start == nil && request.duration == nil))
            #expect(options.detector == request.sensitivity.apply(to: AnalysisOptions().detector))
            #expect(options.contactModel == nil, "the job runner reads the racket sound's model from the store")
            if let mark = request.player { #expect(options.player == .marked(mark)) } else { #expect(options.player == AnalysisOptions().player) }
        }
    }

    @Test("What a job carries is shown to the page: the player's mark in its text form, the warnings, the stage number")
    func theJobViewShowsTheRequest() throws {
        let request = AnalysisRequest(hand: .left, player: PlayerMark(x: 0.5, y: 0.5, time: 2), racketSound: 12)
        var job = JobRecord(upload: "/m/b.mp4", sha256: String(repeating: "b", count: 64), fileName: "b.mp4", request: request,
                            warnings: ["One."])
        job.id = 7
        let view = JobView(job)
        #expect(view.player == request.player?.description && view.warnings == ["One."] && view.file == "b.mp4")
        #expect(view.racketSound == 12)
        #expect(view.stage == 0 && view.stageName == nil && view.state == .queued)
    }

    @Test("A job asking for a racket sound that was deleted, or damaged in the store, fails with one sentence")
    func aMissingOrDamagedRacketSoundIsASentence() async throws {
        let dir = try TestFiles.temporaryDirectory("racket-sound-gone")
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = try AppDatabase.open(file: dir.appendingPathComponent("s.sqlite"))
        let library = MediaLibrary(directory: dir, store: db)
        do {
            _ = try await library.contactModel(id: 5)
            Issue.record("a missing racket sound was read")
        } catch let error as PipelineError {
            #expect(error.kind == .invalidOptions && ErrorSentence.isWellFormed(error.message) && error.message.contains("was deleted"), "\(error)")
        }
        let id = try await db.saveContactModel(ContactModelRecord(name: "old racket", sessionId: nil, contacts: 12, f1: 1, model: #"{"format": 1}"#))
        do {
            _ = try await library.contactModel(id: id)
            Issue.record("a damaged racket sound was read")
        } catch let error as AudioError {
            #expect(error.statusCode == StatusCode.modelUnreadable && error.description.contains("old racket"), "\(error)")
        }
        await #expect(throws: StoreError.self) { try await library.learnRacketSound(fromSession: 4) }
    }
}
