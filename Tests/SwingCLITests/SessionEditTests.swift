import Foundation
import SwingCore
import SwingTestSupport
import Testing

/// The swing check on the bundled demo clip and the player's corrections (`sessions edit`, issue #27).
/// The demo's people walk past; its sound has four synthetic hits (Samples/demo_session.truth.json).
@Suite(.serialized) struct SessionEditTests {
    struct Doc: Decodable {
        struct Shot: Decodable { var index: Int; var time: Double; var status: String; var origin: String?; var confirmed: Bool? }
        struct Rejected: Decodable { var time: Double; var kind: String; var reason: String; var peakWristSpeedCmS: Double? }
        struct Edit: Decodable { var action: String; var time: Double }
        struct Stats: Decodable { var shotCount: Int; var consistency: Double? }
        struct Session: Decodable {
            var shots: [Shot]; var rejectedContacts: [Rejected]?; var stats: Stats; var edits: [Edit]?; var duration: Double
            var warnings: [String]; var sensitivity: String?
        }
        var session: Session
    }

    static func truth() throws -> [Double] {
        struct Truth: Decodable { var contacts: [Double] }
        let url = TestFiles.packageRoot.appendingPathComponent("Samples/demo_session.truth.json")
        return try JSONDecoder().decode(Truth.self, from: Data(contentsOf: url)).contacts
    }

    static func export(_ id: String, _ env: [String: String]) async throws -> Doc.Session {
        let out = try await InProcess.run(["sessions", "export", id, "--json"], environment: env)
        try #require(out.status == 0, "\(out.stderr)")
        return try JSONDecoder().decode(Doc.self, from: out.data).session
    }

    @Test("The demo's walkers are not shots; the player restores, removes, adds and undoes, and hostile edits are refused")
    func editFlow() async throws {
        let home = try TestFiles.temporaryDirectory("edit-home")
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["SWINGMASTER_HOME": home.path]
        let truth = try Self.truth()
        let analysed = try await InProcess.run(["analyze", AnalyzeCommandTests.sample, "--hand", "right"], environment: env)
        try #require(analysed.status == 0, "\(analysed.stderr)")
        #expect(analysed.stdout.contains("not shots"), "\(analysed.stdout)")

        // Every heard contact is either a shot or a rejected contact with its reason.
        var s = try await Self.export("1", env)
        let rejected = s.rejectedContacts ?? []
        #expect(s.shots.count + rejected.count == truth.count)
        for t in truth {
            #expect(s.shots.contains { abs($0.time - t) <= 0.02 } || rejected.contains { abs($0.time - t) <= 0.02 }, "\(t) lost")
        }
        #expect(!rejected.isEmpty && rejected.allSatisfy { $0.kind == "noSwing" && $0.reason.hasPrefix("No swing") && ($0.peakWristSpeedCmS ?? 999) < 140 })
        #expect(s.stats.shotCount == s.shots.filter { $0.status == "ok" }.count)
        let before = s

        // Restore a rejected contact: it becomes a shot, confirmed, and the statistics count it.
        let first = try #require(rejected.first)
        let restored = try await InProcess.run(["sessions", "edit", "1", "--restore-contact", String(format: "%.2f", first.time)], environment: env)
        #expect(restored.status == 0, "\(restored.stderr)")
        s = try await Self.export("1", env)
        #expect(s.stats.shotCount == before.stats.shotCount + 1)
        #expect(s.shots.contains { abs($0.time - first.time) < 1e-9 && $0.confirmed == true })
        #expect(s.shots.map(\.index) == Array(1...s.shots.count))

        // Remove it again and add a hit the detector missed (its window is posed from the video).
        let missed = 11.0
        let both = try await InProcess.run(["sessions", "edit", "1", "--remove-contact", String(first.time), "--add-contact", String(missed)],
                                             environment: env)
        #expect(both.status == 0, "\(both.stderr)")
        s = try await Self.export("1", env)
        #expect(s.edits?.map(\.action) == ["restore", "remove", "add"])
        #expect(s.rejectedContacts?.contains { abs($0.time - first.time) < 1e-9 && $0.kind == "removed" } == true)
        let added = try #require(s.shots.first { $0.time == missed })
        #expect(added.origin == "added" && added.status == "ok", "the added contact has no pose: \(added)")
        #expect(s.stats.shotCount == before.stats.shotCount + 1)

        // Undo twice: back to the restore; once more: the session as analysed.
        for _ in 0..<2 { #expect(try await InProcess.run(["sessions", "edit", "1", "--undo"], environment: env).status == 0) }
        s = try await Self.export("1", env)
        #expect(s.edits?.map(\.action) == ["restore"] && s.stats.shotCount == before.stats.shotCount + 1)
        #expect(try await InProcess.run(["sessions", "edit", "1", "--undo"], environment: env).status == 0)
        s = try await Self.export("1", env)
        #expect(s.shots.map(\.time) == before.shots.map(\.time) && s.stats.consistency == before.stats.consistency)
        #expect(s.rejectedContacts?.map(\.time) == before.rejectedContacts?.map(\.time) && s.edits == nil)

        // Hostile edits: one sentence, a documented code, and the stored session unchanged.
        let limit = Int(s.duration / 0.25) + 1
        // A thousand contacts, far past the limit (ten thousand took the argument parser a minute in a debug build).
        let many = (0..<1_000).flatMap { ["--add-contact", String(format: "%.3f", 0.001 * Double($0))] }
        let cases: [([String], Int32, String)] = [
            (["--add-contact", "99"], StatusCode.invalidEdit, "outside the video"),
            (["--add-contact=-1"], StatusCode.invalidEdit, "outside the video"),
            (["--remove-contact", "1e308"], StatusCode.invalidEdit, "1e+308 s is outside the video"),
            (["--threshold-factor", "2"], StatusCode.usage, "go with --sensitivity"),
            (["--add-contact", "nan"], StatusCode.usage, "finite"),
            (["--remove-contact", "5.5"], StatusCode.invalidEdit, "no shot within"),
            (["--restore-contact", "10.5"], StatusCode.invalidEdit, "no rejected contact"),
            (["--undo"], StatusCode.invalidEdit, "no edit to undo"),
            (["--add-contact", String(truth[0] + 0.05)], StatusCode.invalidEdit, "already a contact"),
            (many, StatusCode.invalidEdit, "at most \(limit) contacts"),
            ([], StatusCode.usage, "--undo alone"),
        ]
        for (args, code, sentence) in cases {
            let out = try await InProcess.run(["sessions", "edit", "1"] + args, environment: env)
            #expect(out.status == code, "\(args.prefix(4)): \(out.status) \(out.stderr)")
            #expect(out.stderr.contains(sentence), "\(args.prefix(4)): \(out.stderr)")
            #expect(out.stderr.split(separator: "\n").count <= 3, "more than one sentence: \(out.stderr)")
            let after = try await Self.export("1", env)
            #expect(after.shots.map(\.time) == s.shots.map(\.time) && after.edits == nil, "\(args.prefix(4)) changed the session")
        }
        let gone = try await InProcess.run(["sessions", "edit", "7", "--undo"], environment: env)
        #expect(gone.status == StatusCode.notFound)
    }

    @Test("Two edits at once on one session: each is stored whole or refused with a sentence, nothing doubled")
    func concurrentEdits() async throws {
        let home = try TestFiles.temporaryDirectory("edit-race")
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["SWINGMASTER_HOME": home.path]
        try #require(try await InProcess.run(["analyze", AnalyzeCommandTests.sample, "--hand", "right"], environment: env).status == 0)
        let rejected = try await #require(try Self.export("1", env).rejectedContacts)
        try #require(rejected.count >= 2)
        let times = rejected.prefix(2).map { String($0.time) }
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            let out = try? SwingmasterBinary.run(["sessions", "edit", "1", "--restore-contact", times[i]], environment: env)
            results.append((out?.status ?? -1, out?.stderr ?? "did not run"))
        }
        let outcomes = results.all
        let s = try await Self.export("1", env)
        let won = outcomes.filter { $0.0 == 0 }.count
        #expect(won >= 1)
        for (code, err) in outcomes where code != 0 {
            #expect(code == StatusCode.conflict || code == StatusCode.databaseError, "\(code) \(err)")
            #expect(err.contains("changed while") || err.contains("locked"), "\(err)")
        }
        #expect(s.edits?.count == won, "\(won) edits won, \(s.edits?.count ?? 0) stored")
        #expect(s.shots.filter { $0.confirmed == true }.count == won)

        // An edit while the session is being listened to again: the one stored second is checked against
        // the version it read, so the session is always one complete version with every stored change.
        let third = try await #require(try Self.export("1", env).rejectedContacts?.first { $0.kind == "noSwing" }).time
        let runs = [["sessions", "edit", "1", "--sensitivity", "more"], ["sessions", "edit", "1", "--restore-contact", String(third)]]
        let race = Results()
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            let out = try? SwingmasterBinary.run(runs[i], environment: env)
            race.append((out?.status ?? -1, "\(i)|" + (out?.stderr ?? "did not run")))
        }
        let status = { (i: Int) in race.all.first { $0.1.hasPrefix("\(i)|") }?.0 ?? -1 }
        for (code, err) in race.all where code != 0 {
            #expect(code == StatusCode.conflict || code == StatusCode.databaseError, "\(code) \(err)")
        }
        let after = try await Self.export("1", env)
        #expect(after.shots.contains { abs($0.time - third) < 1e-9 && $0.confirmed == true } == (status(1) == 0), "\(race.all)")
        #expect((after.sensitivity == "more") == (status(0) == 0), "\(race.all)")
        #expect(after.edits?.count == won + (status(1) == 0 ? 1 : 0), "\(race.all)")
    }

    @Test("Listening again at another sensitivity: quieter hits come and go, the player's edits follow where they still apply")
    func sensitivity() async throws {
        let home = try TestFiles.temporaryDirectory("edit-sensitivity")
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["SWINGMASTER_HOME": home.path]
        // The demo's picture with new sound: loud hits at 2.0 and 7.1 s, a medium one (×0.15) at 9.7 s and a
        // quiet one (×0.07) at 4.6 s.
        let loud = ContactsCommandTests.sessionAudio(seconds: 12, impacts: [2.0, 7.1])
        let medium = ContactsCommandTests.sessionAudio(seconds: 12, impacts: [9.7])
        let quiet = ContactsCommandTests.sessionAudio(seconds: 12, impacts: [4.6])
        let mix = loud.indices.map { loud[$0] + 0.15 * medium[$0] + 0.07 * quiet[$0] }
        let wav = home.appendingPathComponent("mix.wav"), clip = home.appendingPathComponent("levels.mp4")
        try ContactsCommandTests.writeWAV(mix, to: wav)
        try TestFiles.ffmpeg(["-i", AnalyzeCommandTests.sample, "-i", wav.path, "-map", "0:v", "-map", "1:a", "-c:v", "copy",
                              "-c:a", "aac", "-b:a", "192k", "-shortest", clip.path])
        func heard(_ s: Doc.Session) -> [Double] {
            (s.shots.map(\.time) + (s.rejectedContacts ?? []).filter { $0.kind != "removed" }.map(\.time)).sorted()
        }
        func near(_ times: [Double], _ expected: [Double]) -> Bool {
            times.count == expected.count && zip(times, expected).allSatisfy { abs($0 - $1) < 0.05 }
        }
        let analysed = try await InProcess.run(["analyze", clip.path, "--hand", "right", "--no-swing-check"], environment: env)
        try #require(analysed.status == 0, "\(analysed.stderr)")
        let normal = await heard(try Self.export("1", env))
        #expect(near(normal, [2.0, 7.1, 9.7]), "normal: \(normal)")

        #expect(try await InProcess.run(["sessions", "edit", "1", "--sensitivity", "more"], environment: env).status == 0)
        var s = try await Self.export("1", env)
        #expect(near(heard(s), [2.0, 4.6, 7.1, 9.7]), "more: \(heard(s))")
        #expect(s.stats.shotCount == 4)

        // Take out the medium hit, then listen for fewer: it is not heard any more, so the edit is let go, said.
        #expect(try await InProcess.run(["sessions", "edit", "1", "--remove-contact", "9.7"], environment: env).status == 0)
        let fewer = try await InProcess.run(["sessions", "edit", "1", "--sensitivity", "fewer"], environment: env)
        #expect(fewer.status == 0, "\(fewer.stderr)")
        s = try await Self.export("1", env)
        #expect(near(heard(s), [2.0, 7.1]), "fewer: \(heard(s))")
        #expect(s.edits == nil && s.warnings.contains { $0.contains("let go") }, "\(s.warnings)")
        let bad = try await InProcess.run(["sessions", "edit", "1", "--sensitivity", "loud"], environment: env)
        #expect(bad.status == StatusCode.usage)
    }

    /// Outcomes gathered from concurrent runs.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [(Int32, String)] = []
        func append(_ item: (Int32, String)) { lock.lock(); items.append(item); lock.unlock() }
        var all: [(Int32, String)] { lock.lock(); defer { lock.unlock() }; return items }
    }
}
