import Foundation
import Testing
import SwingCore
import SwingStore
import SwingTestSupport

/// `swingmaster migrate`: a laptop's sessions, analysed and edited for real, copied into a PostgreSQL
/// server the test starts; what the server holds reads as the laptop's did, stays editable, and a second
/// run copies nothing twice.
@Suite(.enabled(if: PostgresCluster.isAvailable || PostgresCluster.isRequired))
struct MigrateCommandTests {
    @Test func aLaptopsSessionsMoveToTheServerOnceAndStayEditable() async throws {
        let home = try TestFiles.temporaryDirectory("migrate-home")
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["SWINGMASTER_HOME": home.path]
        for _ in 0..<2 {
            let out = try await SwingmasterBinary.run(["analyze", TestFiles.package("Samples/demo_session.mp4").path, "--hand", "left", "--no-swing-check"], environment: env)
            try #require(out.status == 0, "\(out.stderr)")
        }
        // An edited session keeps its edits in the copy.
        struct Laptop: Decodable { struct Session: Decodable { struct Shot: Decodable { var time: Double }; var shots: [Shot] }; var session: Session }
        let laptop = try await JSONDecoder().decode(Laptop.self, from: SwingmasterBinary.run(["sessions", "export", "2", "--json"], environment: env).data).session
        let edit = try await SwingmasterBinary.run(["sessions", "edit", "2", "--remove-contact", String(laptop.shots[0].time)], environment: env)
        try #require(edit.status == 0, "\(edit.stderr)")
        let edited = try await SwingmasterBinary.run(["sessions", "export", "2", "--json"], environment: env).data
        // A racket sound learnt on the laptop goes along, without its link to a laptop session.
        let laptopStore = try AppDatabase.open(file: home.appendingPathComponent(AppDatabase.fileName))
        _ = try await laptopStore.saveContactModel(ContactModelRecord(name: "my racket", sessionId: 2, contacts: 12, f1: 1, model: "{}"))

        let url = try PostgresCluster.shared().newDatabase("migrate")
        let media = home.appendingPathComponent("server-media")
        let first = try await SwingmasterBinary.run(["migrate", "--to", url, "--media", media.path], environment: env)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Copied 2 session(s)") && first.stdout.contains("1 video(s)")
                && first.stdout.contains("1 racket sound(s)"), "\(first.stdout)")
        let again = try await SwingmasterBinary.run(["migrate", "--to", url, "--media", media.path], environment: env)
        #expect(again.stdout.contains("Copied 0 session(s)") && again.stdout.contains("2 already there")
                && again.stdout.contains("0 racket sound(s)"), "\(again.stdout)")

        let server = try await PostgresStore.connect(url: url)
        defer { server.close() }
        let sessions = try await server.sessions()
        #expect(sessions.count == 2)
        #expect(try await server.dominantHand() == .left)
        let sounds = try await server.contactModels()
        #expect(sounds.map(\.name) == ["my racket"] && sounds.first?.sessionId == nil && sounds.first?.model == "{}")
        // One copy of the video (both sessions analysed the same file), named by its checksum, and the
        // sessions point at it.
        let files = try FileManager.default.contentsOfDirectory(atPath: media.path)
        #expect(files == ["\(sessions[0].fileSHA256).mp4"])
        #expect(sessions.allSatisfy { $0.filePath == media.appendingPathComponent(files[0]).path })

        // The edited session reads the same from the server, under its new id.
        let serverEnv = env.merging([StoreAddress.environmentVariable: url]) { $1 }
        let newest = try #require(sessions.first?.id)
        let copied = try await SwingmasterBinary.run(["sessions", "export", "\(newest)", "--json"], environment: serverEnv)
        try #require(copied.status == 0, "\(copied.stderr)")
        func withoutId(_ data: Data) throws -> NSDictionary {
            var json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            var session = try #require(json["session"] as? [String: Any])
            session["id"] = nil
            session["file"] = nil
            json["session"] = session
            return json as NSDictionary
        }
        #expect(try withoutId(copied.data) == withoutId(edited))
        #expect((try JSONSerialization.jsonObject(with: copied.data) as? [String: Any]).flatMap { ($0["session"] as? [String: Any])?["id"] as? Int } == Int(newest))
        // Its pose track came along: undoing the laptop's edit re-measures it on the server.
        let undo = try await SwingmasterBinary.run(["sessions", "edit", "\(newest)", "--undo"], environment: serverEnv)
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(try await server.sessionRecord(id: newest)?.revision == 1)
    }
}
