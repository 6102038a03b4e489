import Foundation
import SwingTestSupport
import Testing

/// `swingmaster analyze` end to end on the bundled sample and on bad inputs.
@Suite(.serialized) struct AnalyzeCommandTests {
    static let sample = TestFiles.packageRoot.appendingPathComponent("Samples/demo_session.mp4").path

    struct Truth: Decodable { var contacts: [Double] }
    struct Doc: Decodable {
        struct Session: Decodable {
            struct Shot: Decodable {
                struct Contact: Decodable, Equatable { var forwardCm: Double; var lateralCm: Double; var heightCm: Double }
                struct Arc: Decodable { var image: [[Double]]?; var body: [[Double]] }
                var index: Int; var time: Double; var status: String; var contact: Contact?
                var classification: String?; var wristSpeedCmS: Double?; var arc: Arc?
            }
            struct Stats: Decodable { var shotCount: Int; var consistency: Double? }
            var id: Int64?; var file: String; var fps: Double; var hand: String; var shots: [Shot]; var stats: Stats
            var warnings: [String]?
            struct Delay: Decodable { var ms: Double }
            var soundDelay: Delay?
        }
        var session: Session
    }
    /// `measure --json`.
    struct Report: Decodable { var shots: [Doc.Session.Shot] }

    @Test func bundledSampleEveryContactHasAPersonAndTheSessionIsStoredFirst() async throws {
        let home = try TestFiles.temporaryDirectory("analyze-home")
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["SWINGMASTER_HOME": home.path]
        let jsonURL = home.appendingPathComponent("s.json")
        // The demo clip's people walk (docs/analysis.md, "Swing check"): with the check off every contact is a shot.
        let trackURL = home.appendingPathComponent("track.json")
        let out = try await InProcess.run(["analyze", Self.sample, "--hand", "right", "--json", jsonURL.path, "--no-swing-check",
                                             "--save-track", trackURL.path], environment: env)
        #expect(out.status == 0, "stderr: \(out.stderr)")
        #expect(out.stdout.contains("consistency"), "\(out.stdout)")

        let truthURL = TestFiles.packageRoot.appendingPathComponent("Samples/demo_session.truth.json")
        let truth = try JSONDecoder().decode(Truth.self, from: Data(contentsOf: truthURL)).contacts
        let doc = try JSONDecoder().decode(Doc.self, from: Data(contentsOf: jsonURL)).session
        #expect(doc.shots.count == truth.count, "shots at \(doc.shots.map(\.time)) vs truth \(truth)")
        for t in truth {
            let shot = doc.shots.first { abs($0.time - t) <= 0.02 }
            #expect(shot != nil, "no shot within 20 ms of \(t)")
            #expect(shot?.status == "ok" && shot?.contact != nil, "shot at \(t) has no person")
            #expect((shot?.arc?.image?.count ?? 0) > 5, "shot at \(t) has no image arc")
        }
        #expect(doc.stats.shotCount == truth.count)
        #expect(doc.hand == "right" && doc.fps == 10)
        let id = try #require(doc.id)

        // The saved track re-measures to the same shots with `measure` (given the delay the session used).
        let contactsURL = home.appendingPathComponent("contacts.json")
        try JSONSerialization.data(withJSONObject: ["contacts": doc.shots.map { ["time": $0.time, "confidence": 1.0] }])
            .write(to: contactsURL)
        let measured = try await InProcess.run(["measure", "--track", trackURL.path, "--contacts", contactsURL.path,
                                                  "--hand", "right", "--no-swing-check", "--json",
                                                  "--sound-delay-ms=\(doc.soundDelay?.ms ?? 0)"], environment: env)
        #expect(measured.status == 0, "stderr: \(measured.stderr)")
        let remeasured = try JSONDecoder().decode(Report.self, from: Data(measured.stdout.utf8))
        #expect(remeasured.shots.count == doc.shots.count)
        for (a, b) in zip(remeasured.shots, doc.shots) {
            #expect(a.contact == b.contact, "at \(b.time): \(String(describing: a.contact)) vs \(String(describing: b.contact))")
        }

        // A second session lands on top of the list.
        let again = try await InProcess.run(["analyze", Self.sample, "--start", "0", "--duration", "8"], environment: env)
        #expect(again.status == 0, "stderr: \(again.stderr)")
        let list = try await InProcess.run(["sessions", "list"], environment: env)
        let rows = list.stdout.split(separator: "\n").filter { $0.contains("demo_session.mp4") }
        #expect(rows.count == 2)
        #expect(rows.first?.trimmingCharacters(in: .whitespaces).hasPrefix(String(id + 1)) == true, "\(list.stdout)")
        // The hand given once is remembered (no prompt, no note).
        #expect(!again.stderr.contains("assuming a right-handed"))
    }

    /// `--skip-deblocking` decodes the demo clip (x264 with its deblocking filter on) without the filter:
    /// the same contacts become shots, their numbers stay within a few centimetres of the default run's,
    /// and the session says how it was decoded.
    @Test func skippingDeblockingKeepsTheShotsAndSaysSo() async throws {
        let home = try TestFiles.temporaryDirectory("analyze-deblock")
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["SWINGMASTER_HOME": home.path]
        var docs: [Doc.Session] = []
        for extra in [[], ["--skip-deblocking"]] {
            let json = home.appendingPathComponent("s\(docs.count).json")
            let out = try await InProcess.run(["analyze", Self.sample, "--hand", "right", "--no-store", "--no-swing-check",
                                                 "--json", json.path] + extra, environment: env)
            #expect(out.status == 0, "stderr: \(out.stderr)")
            docs.append(try JSONDecoder().decode(Doc.self, from: Data(contentsOf: json)).session)
        }
        let (plain, skipped) = (docs[0], docs[1])
        #expect(!(plain.warnings ?? []).contains { $0.contains("deblocking") })
        #expect((skipped.warnings ?? []).contains { $0.contains("deblocking filter") }, "\(skipped.warnings ?? [])")
        #expect(plain.shots.map(\.time) == skipped.shots.map(\.time))
        for (a, b) in zip(plain.shots, skipped.shots) {
            guard let ca = a.contact, let cb = b.contact else { #expect(a.contact == nil && b.contact == nil); continue }
            let moved = max(abs(ca.forwardCm - cb.forwardCm), abs(ca.lateralCm - cb.lateralCm), abs(ca.heightCm - cb.heightCm))
            #expect(moved < 25, "the shot at \(a.time) moved by \(moved) cm without the deblocking filter")
        }
    }

    @Test func videoWithoutAPersonIsAClearErrorAndStoresNothing() async throws {
        let home = try TestFiles.temporaryDirectory("analyze-noperson")
        defer { try? FileManager.default.removeItem(at: home) }
        let wav = home.appendingPathComponent("a.wav")
        try ContactsCommandTests.writeWAV(ContactsCommandTests.sessionAudio(seconds: 7, impacts: [2, 4.5]), to: wav)
        let mp4 = home.appendingPathComponent("empty-court.mp4")
        try TestFiles.ffmpeg(["-f", "lavfi", "-i", "color=c=0x2a6e2a:s=1280x720:r=30:d=7", "-i", wav.path,
                                         "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest", mp4.path])
        let env = ["SWINGMASTER_HOME": home.path]
        let out = try await InProcess.run(["analyze", mp4.path, "--hand", "left"], environment: env)
        #expect(out.status == 30, "stderr: \(out.stderr)")
        #expect(out.stderr.contains("No person"), "\(out.stderr)")
        let list = try await InProcess.run(["sessions", "list"], environment: env)
        #expect(!list.stdout.contains("empty-court.mp4"))
    }

    @Test func audioOnlyAndSilentVideosGiveTheirOwnCodes() async throws {
        let home = try TestFiles.temporaryDirectory("analyze-bad")
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["SWINGMASTER_HOME": home.path]
        let wav = home.appendingPathComponent("a.wav")
        try ContactsCommandTests.writeWAV(ContactsCommandTests.sessionAudio(seconds: 7, impacts: [2]), to: wav)
        let audioOnly = try await InProcess.run(["analyze", wav.path, "--hand", "right"], environment: env)
        #expect(audioOnly.status == 15, "\(audioOnly.stderr)")          // no video track
        let silent = home.appendingPathComponent("silent.mp4")
        try TestFiles.ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=1280x720:r=30:d=6", "-c:v", "libx264", "-preset", "ultrafast", silent.path])
        let noAudio = try await InProcess.run(["analyze", silent.path, "--hand", "right"], environment: env)
        #expect(noAudio.status == 12, "\(noAudio.stderr)")
        let long = try await InProcess.run(["analyze", Self.sample, "--hand", "right", "--max-duration", "10"], environment: env)
        #expect(long.status == 14 && long.stderr.contains("--start"), "\(long.stderr)")
    }

    @Test(arguments: [("--pose-fps=-1", "--pose-fps"), ("--pose-fps=nan", "--pose-fps"),
                      ("--pose-workers=-2", "--pose-workers"), ("--pose-threads=-1", "--pose-threads"),
                      ("--pose-core-margin=-1", "--pose-core-margin"), ("--player=1.5,0.2", "--player"),
                      ("--player=0.5", "--player"), ("--player=nan,0.5", "--player"), ("--player=0.2,-0.1", "--player"),
                      ("--player=0.5,0.5@-1", "--player"), ("--player=0.5,0.5@nan", "--player"), ("--player=0.5,0.5@", "--player"),
                      ("--player=0.5,0.5@1e300", "--player")])
    func badPoseSamplingFlagsAreUsageErrorsAndStoreNothing(flag: String, words: String) async throws {
        let home = try TestFiles.temporaryDirectory("analyze-badflag")
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["SWINGMASTER_HOME": home.path]
        let r = try await InProcess.run(["analyze", Self.sample, "--hand", "right", flag], environment: env)
        #expect(r.status == 64 && r.stderr.contains(words), "\(flag): \(r.status) \(r.stderr)")
        let list = try await InProcess.run(["sessions", "list"], environment: env)
        #expect(list.stdout.contains("No sessions yet"), "\(list.stdout)")
    }

    /// With one worker (cancellation seen on the analysis task's thread) and two (the second worker
    /// learns it from the first).
    @Test(arguments: ["1", "2"]) func ctrlCStopsTheAnalysisAndStoresNothing(workers: String) async throws {
        let home = try TestFiles.temporaryDirectory("analyze-sigint")
        defer { try? FileManager.default.removeItem(at: home) }
        // A session long enough that pose is certainly still running when Ctrl-C arrives: the sample
        // looped three times at 60 fps (36 s, 12 contacts), every frame posed.
        let long = home.appendingPathComponent("long.mp4").path
        try TestFiles.ffmpeg(["-stream_loop", "2", "-i", Self.sample, "-vf", "fps=60", "-t", "36",
                                         "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", long])
        // Interrupt once the analysis is under way (pose takes seconds on this sample).
        let run = try await SwingmasterBinary.interrupt(["analyze", long, "--hand", "right", "--pose-fps", "0", "--pose-workers", workers],
                                                  environment: ["SWINGMASTER_HOME": home.path], delay: 1.5)
        #expect(run.wasRunning && run.status == 130, "status \(run.status): \(run.stderr)")
        #expect(run.stderr.contains("nothing"), "\(run.stderr)")
        let list = try await InProcess.run(["sessions", "list"], environment: ["SWINGMASTER_HOME": home.path])
        #expect(!list.stdout.contains("long.mp4"), "\(list.stdout)")
        #expect(list.stdout.contains("No sessions yet"), "\(list.stdout)")
    }
}
