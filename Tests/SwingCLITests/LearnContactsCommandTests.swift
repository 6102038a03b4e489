import Foundation
import SwingCore
import SwingTestSupport
import Testing

/// `swingmaster learn-contacts` and `contacts --contact-model` end to end, as a player would use them: two sessions
/// of a crowded court squeezed by a phone-like compressor and limiter into AAC in an M4A, the contacts of the
/// first confirmed, the model finding those of the second; and every refusal one sentence with its code.
@Suite(.serialized) struct LearnContactsCommandTests {
    /// Session `seed`: 40 s of the synthetic ambience condition (a crowd), compressed 6:1 with a 5 ms
    /// attack, limited, AAC 96 kbit/s at 48 kHz. Returns the file and its contact times.
    static func session(_ seed: UInt64, in dir: URL) throws -> (URL, [Double]) {
        let track = SyntheticSessionAudio(duration: 40, seed: seed, condition: .ambience).render()
        let wav = dir.appendingPathComponent("s\(seed).wav"), m4a = dir.appendingPathComponent("s\(seed).m4a")
        try track.float32WAV().write(to: wav)
        try TestFiles.ffmpeg(["-i", wav.path, "-af", "volume=12dB,acompressor=threshold=-30dB:ratio=6:attack=5:release=80,alimiter=limit=0.9",
                              "-ar", "48000", "-c:a", "aac", "-b:a", "96k", m4a.path])
        return (m4a, track.contactTimes)
    }

    /// A `{"contacts": [{"time": …}]}` file of `times`.
    static func contactsFile(_ times: [Double], at url: URL) throws {
        try JSONSerialization.data(withJSONObject: ["contacts": times.map { ["time": $0] }]).write(to: url)
    }

    struct Found: Decodable {
        struct C: Decodable { var time: Double; var confidence: Double }
        struct Provenance: Decodable { var contacts: Int; var recordings: Int }
        var contacts: [C]; var model: Provenance?
    }

    @Test("A model learnt from one confirmed session finds the next session's contacts through a phone-like chain")
    func learnThenFind() async throws {
        let dir = try TestFiles.temporaryDirectory("learn-contacts")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (first, confirmed) = try Self.session(1, in: dir), (second, truth) = try Self.session(2, in: dir)
        let contacts = dir.appendingPathComponent("s1.contacts.json"), model = dir.appendingPathComponent("racket.json")
        try Self.contactsFile(confirmed, at: contacts)

        let learnt = try await InProcess.run(["learn-contacts", first.path, "--contacts", contacts.path, "--out", model.path])
        #expect(learnt.status == 0, "\(learnt.stderr)")
        #expect(learnt.stdout.contains("learnt from \(confirmed.count) confirmed contacts"), "\(learnt.stdout)")
        let folder = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(!folder.contains { $0.hasPrefix(".swingmaster-") }, "a temporary file was left: \(folder)")

        let withModel = try await InProcess.run(["contacts", second.path, "--contact-model", model.path, "--json"])
        #expect(withModel.status == 0, "\(withModel.stderr)")
        let found = try JSONDecoder().decode(Found.self, from: withModel.data)
        #expect(found.model?.contacts == confirmed.count && found.model?.recordings == 1)
        let ours = ContactScore(detected: found.contacts.map(\.time), truth: truth, tolerance: 0.050)
        let plain = try await InProcess.run(["contacts", second.path, "--json"])
        let theirs = ContactScore(detected: try JSONDecoder().decode(Found.self, from: plain.data).contacts.map(\.time), truth: truth, tolerance: 0.050)
        print("learn-contacts: F1 \(ours.f1) with the model, \(theirs.f1) with the detector (\(truth.count) hits)")
        #expect(ours.f1 >= 0.90, "F1 \(ours.f1) with the model")
        #expect(ours.f1 > theirs.f1, "F1 \(ours.f1) with the model, \(theirs.f1) without")
        #expect(found.contacts.allSatisfy { $0.confidence >= 0 && $0.confidence <= 1 })

        // The table and CSV outputs work with a model too.
        let csv = try await InProcess.run(["contacts", second.path, "--contact-model", model.path, "--csv"])
        #expect(csv.status == 0 && csv.stdout.split(separator: "\n").count == found.contacts.count + 1)
    }

    @Test("Every refusal is one sentence with its documented code, and leaves no model behind")
    func refusals() async throws {
        let dir = try TestFiles.temporaryDirectory("learn-contacts-refused")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (first, confirmed) = try Self.session(3, in: dir)
        let contacts = dir.appendingPathComponent("c.json"), few = dir.appendingPathComponent("few.json")
        let bad = dir.appendingPathComponent("bad.json"), model = dir.appendingPathComponent("m.json")
        try Self.contactsFile(confirmed, at: contacts)
        try Self.contactsFile(Array(confirmed.prefix(3)), at: few)
        try Data("{\"contacts\": [{\"tim\": 1}]}".utf8).write(to: bad)
        try Data("{\"format\": \"swingmaster-contact-model\"}".utf8).write(to: dir.appendingPathComponent("damaged.json"))
        // An output that is a pipe (as /dev/full or /dev/stdout are devices) would be replaced by the rename.
        let fifo = dir.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let cases: [([String], Int32)] = [
            (["learn-contacts", first.path, "--out", model.path], 64),                                   // no --contacts
            (["learn-contacts", first.path, "--contacts", contacts.path, "--contacts", few.path, "--out", model.path], 64),
            (["learn-contacts", first.path, "--contacts", contacts.path, "--out", contacts.path], 64),    // output = input
            (["learn-contacts", first.path, "--contacts", few.path, "--out", model.path], 34),
            (["learn-contacts", first.path, "--contacts", bad.path, "--out", model.path], 32),
            (["learn-contacts", first.path, "--contacts", dir.appendingPathComponent("none.json").path, "--out", model.path], 10),
            (["learn-contacts", dir.appendingPathComponent("none.m4a").path, "--contacts", contacts.path, "--out", model.path], 10),
            (["learn-contacts", first.path, "--contacts", contacts.path, "--out", dir.appendingPathComponent("no/m.json").path], 17),
            (["contacts", first.path, "--contact-model", dir.appendingPathComponent("none.json").path], 21),
            (["contacts", first.path, "--contact-model", dir.appendingPathComponent("damaged.json").path], 21),
            (["contacts", first.path, "--contact-model", contacts.path], 21),
            (["learn-contacts", first.path, "--contacts", contacts.path, "--out", fifo.path], 17),          // not a regular file
            (["learn-contacts", first.path, "--contacts", "/dev/zero", "--out", model.path], 10),          // endless input, read to a cap
            (["contacts", first.path, "--contact-model", model.path, "--sensitivity", "more"], 64),                // detector options
        ]
        for (args, code) in cases {
            let out = try await InProcess.run(args)
            let lines = out.stderr.split(separator: "\n").filter { !$0.isEmpty && !$0.contains("\r") }
            #expect(out.status == code, "\(args.dropFirst()): exit \(out.status), \(out.stderr)")
            #expect(lines.count >= 1 && lines.last.map { $0.hasSuffix(".") || $0.contains("Usage") || $0.contains("--help") } == true,
                    "\(args.dropFirst()): \(out.stderr)")
            #expect(!FileManager.default.fileExists(atPath: model.path), "\(args.dropFirst()) left a model")
        }
        var s = stat()
        #expect(stat(fifo.path, &s) == 0 && (s.st_mode & S_IFMT) == S_IFIFO, "the pipe given as --out was replaced")
    }
}

/// `analyze --contact-model`: the session's contacts come from the model, and the document says so.
@Suite(.serialized) struct AnalyzeWithContactModelTests {
    @Test("A model learnt from an earlier session with the same sound finds the demo session's hits, and the shots follow")
    func analyzeWithAModel() async throws {
        let dir = try TestFiles.temporaryDirectory("analyze-contact-model")
        defer { try? FileManager.default.removeItem(at: dir) }
        // An earlier 40-s session of the demo's court sound, 14 hits, confirmed.
        let (wav, times) = try CourtSession.sound(seconds: 40, hits: 14, seed: 9, in: dir)
        let contacts = dir.appendingPathComponent("earlier.contacts.json"), model = dir.appendingPathComponent("racket.json")
        try LearnContactsCommandTests.contactsFile(times, at: contacts)
        let learnt = try await InProcess.run(["learn-contacts", wav.path, "--contacts", contacts.path, "--out", model.path])
        #expect(learnt.status == 0, "\(learnt.stderr)")

        let demo = TestFiles.package("Samples/demo_session.mp4").path
        let heard = try await InProcess.run(["contacts", demo, "--contact-model", model.path, "--json"])
        let byModel = try JSONDecoder().decode(LearnContactsCommandTests.Found.self, from: heard.data).contacts.map(\.time)
        struct Truth: Decodable { var contacts: [Double] }
        let demoTruth = try JSONDecoder().decode(Truth.self, from: Data(contentsOf: TestFiles.package("Samples/demo_session.truth.json"))).contacts
        #expect(ContactScore(detected: byModel, truth: demoTruth, tolerance: 0.050).f1 == 1, "model: \(byModel), truth: \(demoTruth)")

        let report = dir.appendingPathComponent("session.json")
        let analysed = try await InProcess.run(["analyze", demo, "--contact-model", model.path, "--no-store", "--hand", "right", "--json", report.path])
        #expect(analysed.status == 0, "\(analysed.stderr)")
        struct Document: Decodable {
            struct Session: Decodable {
                struct Shot: Decodable { var time: Double }
                struct Rejected: Decodable { var time: Double }
                struct Provenance: Decodable { var contacts: Int }
                var shots: [Shot]; var rejectedContacts: [Rejected]?; var contactsHeard: Int; var contactModel: Provenance?
            }
            var session: Session
        }
        let session = try JSONDecoder().decode(Document.self, from: Data(contentsOf: report)).session
        #expect(session.contactModel?.contacts == times.count)
        #expect(session.contactsHeard == byModel.count)
        let analysedTimes = (session.shots.map(\.time) + (session.rejectedContacts ?? []).map(\.time)).sorted()
        #expect(analysedTimes.count == byModel.count && zip(analysedTimes, byModel.sorted()).allSatisfy { abs($0 - $1) < 1e-6 },
                "analyze: \(analysedTimes), contacts: \(byModel)")
        // Detector settings beside a model are refused, not ignored.
        let refused = try await InProcess.run(["analyze", demo, "--contact-model", model.path, "--sensitivity", "more", "--no-store", "--hand", "right"])
        #expect(refused.status == 64 && refused.stderr.contains("--contact-model replaces the hand-built detector"), "\(refused.stderr)")
    }
}

/// `learn-contacts --session`: a stored session's contacts as the player corrected them teach the model.
@Suite(.serialized) struct LearnFromStoredSessionTests {
    @Test("A stored session's corrected contacts teach a model; an uncorrected one is used with a warning")
    func learnFromStoredSessions() async throws {
        let dir = try TestFiles.temporaryDirectory("learn-session")
        defer { try? FileManager.default.removeItem(at: dir) }
        // 36 s of the demo's footage with its court sound hitting 13 times.
        let (video, times) = try CourtSession.video(seconds: 36, hits: 13, seed: 5, in: dir)
        let home = ["SWINGMASTER_HOME": dir.appendingPathComponent("home").path]
        let analysed = try await InProcess.run(["analyze", video.path, "--hand", "right", "--no-swing-check"], environment: home)
        #expect(analysed.status == 0, "\(analysed.stderr)")
        let heard = try await JSONDecoder().decode(LearnContactsCommandTests.Found.self,
                                             from: InProcess.run(["contacts", video.path, "--json"]).data).contacts.map(\.time)
        #expect(heard.count == times.count, "heard \(heard)")

        // Never corrected: learnt, with a warning that says what that means.
        let model = dir.appendingPathComponent("m.json")
        let unchecked = try await InProcess.run(["learn-contacts", "--session", "1", "--out", model.path], environment: home)
        #expect(unchecked.status == 0, "\(unchecked.stderr)")
        #expect(unchecked.stderr.contains("Session 1 was never corrected"), "\(unchecked.stderr)")
        #expect(unchecked.stdout.contains("learnt from \(heard.count) confirmed contacts"), "\(unchecked.stdout)")

        // The player removes one contact: the model learns from the rest, and no warning.
        let edited = try await InProcess.run(["sessions", "edit", "1", "--remove-contact", String(heard[3])], environment: home)
        #expect(edited.status == 0, "\(edited.stderr)")
        let corrected = try await InProcess.run(["learn-contacts", "--session", "1", "--out", model.path], environment: home)
        #expect(corrected.status == 0 && !corrected.stderr.contains("never corrected"), "\(corrected.stderr)")
        #expect(corrected.stdout.contains("learnt from \(heard.count - 1) confirmed contacts"), "\(corrected.stdout)")

        // Kept in the store as a racket sound (what the web app offers), listed, and heard with by analyze.
        let none = try await InProcess.run(["learn-contacts", "--list"], environment: home)
        #expect(none.status == 0 && none.stdout.contains("No racket sound is kept yet"), "\(none.stdout)\(none.stderr)")
        let kept = try await InProcess.run(["learn-contacts", "--session", "1", "--keep", "court racket"], environment: home)
        #expect(kept.status == 0 && kept.stdout.contains(#"Kept as racket sound 1, "court racket""#), "\(kept.stdout)\(kept.stderr)")
        let listed = try await InProcess.run(["learn-contacts", "--list"], environment: home)
        #expect(listed.stdout.hasPrefix("1  court racket  (\(heard.count - 1) hits") && listed.stdout.contains("from session 1"), "\(listed.stdout)")
        let demo = TestFiles.package("Samples/demo_session.mp4").path, report = dir.appendingPathComponent("by-racket.json")
        let byRacket = try await InProcess.run(["analyze", demo, "--racket-sound", "1", "--no-store", "--hand", "right", "--json", report.path],
                                                 environment: home)
        #expect(byRacket.status == 0, "\(byRacket.stderr)")
        struct Heard: Decodable { struct S: Decodable { struct P: Decodable { var contacts: Int }; var contactModel: P? }; var session: S }
        #expect(try JSONDecoder().decode(Heard.self, from: Data(contentsOf: report)).session.contactModel?.contacts == heard.count - 1)
        let refusals: [([String], Int32, String)] = [
            (["analyze", demo, "--racket-sound", "9", "--no-store", "--hand", "right"], 41, "There is no racket sound 9"),
            (["analyze", demo, "--racket-sound", "1", "--contact-model", model.path, "--no-store"], 64, "not both"),
            (["analyze", demo, "--racket-sound", "1", "--sensitivity", "more", "--no-store"], 64, "--racket-sound replaces the hand-built detector"),
            (["learn-contacts", "--session", "1"], 64, "--keep NAME"),
            (["learn-contacts", "--session", "1", "--keep", " \n"], 64, "needs a name"),
            (["learn-contacts", "--list", "--session", "1"], 64, "give it alone"),
        ]
        for (args, status, says) in refusals {
            let out = try await InProcess.run(args, environment: home)
            #expect(out.status == status && out.stderr.contains(says), "\(args): \(out.status) \(out.stderr)")
        }

        // The stored session heard again with the model: its document says which model heard it; a file
        // that is not a model is refused with exit 21 and changes nothing.
        let reheard = try await InProcess.run(["sessions", "edit", "1", "--contact-model", model.path], environment: home)
        #expect(reheard.status == 0, "\(reheard.stderr)")
        let document = try await InProcess.run(["sessions", "export", "1", "--json"], environment: home).data
        #expect(try JSONDecoder().decode(Heard.self, from: document).session.contactModel?.contacts == heard.count - 1)
        let notAModel = try await InProcess.run(["sessions", "edit", "1", "--contact-model", video.path], environment: home)
        #expect(notAModel.status == 21 && notAModel.stderr.contains("not a contact model"), "\(notAModel.stderr)")
        #expect(try await InProcess.run(["sessions", "export", "1", "--json"], environment: home).data == document)

        let missing = try await InProcess.run(["learn-contacts", "--session", "9", "--out", model.path], environment: home)
        #expect(missing.status == 41 && missing.stderr.contains("There is no session with id 9"), "\(missing.stderr)")
    }
}
