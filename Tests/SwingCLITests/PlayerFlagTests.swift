import Foundation
import SwingCore
import SwingTestSupport
import Testing

/// `--player X,Y[@SECONDS]` (issue #39): the point and the moment are stored with the session, shown by `sessions
/// show`, reused by its edits, and changed by `sessions edit --player`, which measures every shot again; bad values
/// are one sentence and the usage code, and change nothing.
@Suite(.serialized) struct PlayerFlagTests {
    struct Doc: Decodable {
        struct Mark: Decodable, Equatable { var x: Double; var y: Double; var time: Double? }
        struct Shot: Decodable { var time: Double; var status: String }
        struct Session: Decodable { var player: Mark?; var shots: [Shot]; var edits: [Edit]?; var warnings: [String] }
        struct Edit: Decodable { var action: String }
        var session: Session
    }

    static func export(_ env: [String: String]) async throws -> Doc.Session {
        let out = try await InProcess.run(["sessions", "export", "1", "--json"], environment: env)
        try #require(out.status == 0, "\(out.stderr)")
        return try JSONDecoder().decode(Doc.self, from: out.data).session
    }

    @Test func thePlayersPointAndMomentAreStoredShownReusedAndChanged() async throws {
        let home = try TestFiles.temporaryDirectory("player-flag")
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["SWINGMASTER_HOME": home.path]
        // The demo's two walkers at 7 s; the one on the right (in the red jacket, x ≈ 0.73) is the player.
        let analysed = try await InProcess.run(["analyze", AnalyzeCommandTests.sample, "--hand", "right", "--player", "0.73,0.52@7"],
                                                 environment: env)
        try #require(analysed.status == 0, "\(analysed.stderr)")
        #expect(analysed.stdout.contains("player:   the person you pointed at, 73% across and 52% down the picture at 7.00 s"), "\(analysed.stdout)")
        var s = try await Self.export(env)
        #expect(s.player == Doc.Mark(x: 0.73, y: 0.52, time: 7))
        let show = try await InProcess.run(["sessions", "show", "1"], environment: env)
        #expect(show.stdout.contains("--player 0.7300,0.5200@7.000"), "\(show.stdout)")

        // An edit keeps the choice; another point replaces it and poses every shot again.
        #expect(try await InProcess.run(["sessions", "edit", "1", "--add-contact", "11"], environment: env).status == 0)
        s = try await Self.export(env)
        #expect(s.player == Doc.Mark(x: 0.73, y: 0.52, time: 7) && s.edits?.map(\.action) == ["add"])
        let moved = try await InProcess.run(["sessions", "edit", "1", "--player", "0.41,0.95@7"], environment: env)
        #expect(moved.status == 0, "\(moved.stderr)")
        s = try await Self.export(env)
        #expect(s.player == Doc.Mark(x: 0.41, y: 0.95, time: 7) && s.edits?.map(\.action) == ["add"], "\(s)")
        #expect(s.shots.contains { $0.time == 11 }, "the added contact was lost when the player changed")

        // Refused with one sentence and 64; nothing changes.
        for bad in [["--player", "1.5,0.5"], ["--player", "0.5,0.5@-2"], ["--player", "0.5"], ["--player", "0.5,0.5@1", "--undo"]] {
            let r = try await InProcess.run(["sessions", "edit", "1"] + bad, environment: env)
            #expect(r.status == 64 && ErrorSentence.problem(in: r.stderr) == nil, "\(bad): \(r.status) \(r.stderr)")
        }
        let outside = try await InProcess.run(["sessions", "edit", "1", "--player", "0.5,0.5@400"], environment: env)
        #expect(outside.status == 33 && outside.stderr.contains("outside the video"), "\(outside.status) \(outside.stderr)")
        await #expect(try Self.export(env).player == Doc.Mark(x: 0.41, y: 0.95, time: 7))
    }
}
