import Foundation
import SwingTestSupport
import Testing
import SwingBiomech
import SwingCore
import SwingStore

/// `swingmaster sessions …` through the real binary, against a database in a temporary SWINGMASTER_HOME
/// filled with the SwingStore API.
@Suite struct SessionsCommandTests {
    struct Home {
        let url: URL
        var env: [String: String] { ["SWINGMASTER_HOME": url.path] }
        func run(_ args: [String]) async throws -> SwingmasterBinary.Output { try await InProcess.run(["sessions"] + args, environment: env) }
    }

    func makeHome() async throws -> (Home, [Int64]) {
        let url = try TestFiles.temporaryDirectory("sessions-home")
        let db = try AppDatabase.open(home: url)
        var ids: [Int64] = []
        for (name, seconds, consistency) in [("monday.mp4", 1_700_000_000.0, 63.5), ("tuesday.mp4", 1_700_090_000.0, 71.25)] {
            let session = SessionRecord(filePath: "/videos/\(name)", fileSHA256: String(repeating: "0", count: 64),
                                     createdAt: Date(timeIntervalSince1970: seconds), durationSeconds: 61.2, fps: 60,
                                     hand: .right, stats: SessionStats(shotCount: 2, consistency: consistency))
            let shots = [
                ShotRecord(Shot(index: 1, time: 3.412, contactTime: 3.412, confidence: 0.91, status: .ok,
                                contact: ContactPoint(forwardCm: 41.2, lateralCm: 58, heightCm: 96.3), wristSpeedCmS: 812,
                                classification: .optimal, contactVideoFrame: 205,
                                arc: SwingArc(body: [ArcPoint(forwardCm: 40, lateralCm: 57, heightCm: 95, time: 3.4)], image: nil))),
                ShotRecord(Shot(index: 2, time: 7.5, contactTime: 7.5, confidence: 0.5)),
            ]
            ids.append(try await db.saveSession(session, shots: shots))
        }
        return (Home(url: url), ids)
    }

    @Test func listShowsNewestFirst() async throws {
        let (home, ids) = try await makeHome()
        defer { try? FileManager.default.removeItem(at: home.url) }
        let out = try await home.run(["list"])
        #expect(out.status == 0, "\(out.stderr)")
        // Each row starts with the id that `sessions show` takes.
        for (id, name) in zip(ids, ["monday.mp4", "tuesday.mp4"]) {
            let row = out.stdout.split(separator: "\n").first { $0.contains(name) }
            #expect(row?.split(separator: " ").first == Substring("\(id)"), "\(String(describing: row))")
        }
        let tuesday = try #require(out.stdout.range(of: "tuesday.mp4")), monday = try #require(out.stdout.range(of: "monday.mp4"))
        #expect(tuesday.lowerBound < monday.lowerBound)
        #expect(out.stdout.contains("71.2") || out.stdout.contains("71.3"))
    }

    @Test func emptyDatabaseSaysSo() async throws {
        let url = try TestFiles.temporaryDirectory("sessions-empty")
        defer { try? FileManager.default.removeItem(at: url) }
        let out = try await Home(url: url).run(["list"])
        #expect(out.status == 0 && out.stdout.contains("No sessions"))
    }

    @Test func showPrintsTheShotTable() async throws {
        let (home, ids) = try await makeHome()
        defer { try? FileManager.default.removeItem(at: home.url) }
        let out = try await home.run(["show", "\(ids[0])"])
        #expect(out.status == 0)
        #expect(out.stdout.contains("monday.mp4") && out.stdout.contains("41.2") && out.stdout.contains("no person"))
    }

    @Test func exportJSONHasTheAnalyzeShape() async throws {
        let (home, ids) = try await makeHome()
        defer { try? FileManager.default.removeItem(at: home.url) }
        let out = try await home.run(["export", "\(ids[1])", "--json"])
        #expect(out.status == 0, "\(out.stderr)")
        let doc = try #require(try JSONSerialization.jsonObject(with: out.data) as? [String: Any])
        let session = try #require(doc["session"] as? [String: Any])
        #expect(session["id"] as? Int == Int(ids[1]))
        #expect((session["stats"] as? [String: Any])?["consistency"] as? Double == 71.25)
        let shots = try #require(session["shots"] as? [[String: Any]])
        #expect(shots.count == 2)
        #expect((shots[0]["contact"] as? [String: Any])?["forwardCm"] as? Double == 41.2)
        #expect(((shots[0]["arc"] as? [String: Any])?["body"] as? [[Double]])?.first?.count == 4)
        #expect(shots[1]["contact"] == nil && shots[1]["status"] as? String == "noPerson")
    }

    @Test func exportCSVHasOneRowPerShot() async throws {
        let (home, ids) = try await makeHome()
        defer { try? FileManager.default.removeItem(at: home.url) }
        let out = try await home.run(["export", "\(ids[0])", "--csv"])
        let lines = out.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("session,index,time"))
        #expect(lines[1].contains(",41.200,58.000,96.300,812.000,optimal,205"))
        // …, classification, contactVideoFrame, stroke, then the 7 body measures: all empty without a person.
        #expect(lines[2].hasSuffix(",noPerson" + String(repeating: ",", count: 7 + 7)))
        let neither = try await home.run(["export", "\(ids[0])"])
        #expect(neither.status != 0)
        // A session stored without its pose (as before the pose was kept) has nothing for OpenSim: said, no file.
        let trc = home.url.appendingPathComponent("s.trc")
        let noPose = try await home.run(["export", "\(ids[0])", "--trc", trc.path])
        #expect(noPose.status == 41 && noPose.stderr.contains("before its pose was kept"), "\(noPose.status): \(noPose.stderr)")
        #expect(!FileManager.default.fileExists(atPath: trc.path))
    }

    @Test func deleteRemovesTheSessionAndUnknownIdsAreNotFound() async throws {
        let (home, ids) = try await makeHome()
        defer { try? FileManager.default.removeItem(at: home.url) }
        let deleted = try await home.run(["delete", "\(ids[0])"])
        #expect(deleted.status == 0)
        await #expect(try home.run(["list"]).stdout.contains("monday.mp4") == false)
        for args in [["show", "\(ids[0])"], ["delete", "\(ids[0])"], ["export", "999", "--json"]] {
            let out = try await home.run(args)
            #expect(out.status == StatusCode.notFound, "\(args)")
            #expect(out.stderr.hasPrefix("error: There is no session"))
        }
    }
    /// A session the web app made keeps its upload, its browser copy and what was drawn from it in the media
    /// folder: `sessions delete` removes them as the web app does (no orphan files), keeps an upload another
    /// session still uses, and never touches a video analysed from the player's own folder.
    @Test func deleteLeavesNoOrphanFilesAndNeverTheUsersOwnVideo() async throws {
        let url = try TestFiles.temporaryDirectory("sessions-delete")
        defer { try? FileManager.default.removeItem(at: url) }
        let media = url.appendingPathComponent("media", isDirectory: true)
        let own = url.appendingPathComponent("my videos", isDirectory: true)
        for dir in [media, own] { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
        let upload = media.appendingPathComponent(String(repeating: "a", count: 64) + ".mov").path
        let shared = media.appendingPathComponent(String(repeating: "b", count: 64) + ".mp4").path
        let mine = own.appendingPathComponent("saturday.mp4").path
        for path in [upload, upload + ".playback.mp4", shared, mine] {
            #expect(FileManager.default.createFile(atPath: path, contents: Data("video".utf8)))
        }
        let db = try AppDatabase.open(home: url)
        var ids: [Int64] = []
        for path in [upload, shared, shared, mine] {
            let session = SessionRecord(filePath: path, fileSHA256: String(repeating: "0", count: 64), createdAt: Date(),
                                        durationSeconds: 30, fps: 30, hand: .right, stats: SessionStats(shotCount: 0))
            ids.append(try await db.saveSession(session, shots: []))
        }
        let drawn = ["thumb.jpg", "envelope.json", "annotated.mp4", "highlights.mp4"]
        for id in ids {
            for name in drawn {
                _ = FileManager.default.createFile(atPath: media.appendingPathComponent("session-\(id).\(name)").path, contents: Data())
            }
        }
        let home = Home(url: url)
        func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
        func drawnLeft(_ id: Int64) -> [String] { drawn.filter { exists(media.appendingPathComponent("session-\(id).\($0)").path) } }

        // The web app's upload: it goes with its browser copy and everything drawn from it.
        await #expect(try home.run(["delete", "\(ids[0])"]).status == 0)
        #expect(!exists(upload) && !exists(upload + ".playback.mp4"))
        #expect(drawnLeft(ids[0]).isEmpty)
        #expect(drawnLeft(ids[1]) == drawn, "another session's drawings stay")
        // An upload two sessions share stays until the second goes.
        await #expect(try home.run(["delete", "\(ids[1])"]).status == 0)
        #expect(exists(shared) && drawnLeft(ids[1]).isEmpty)
        await #expect(try home.run(["delete", "\(ids[2])"]).status == 0)
        #expect(!exists(shared))
        // The player's own video is theirs: only the session and its drawings go.
        await #expect(try home.run(["delete", "\(ids[3])"]).status == 0)
        #expect(exists(mine) && drawnLeft(ids[3]).isEmpty)
        await #expect(try home.run(["list"]).stdout.contains("No sessions yet"))
        // Uploads kept elsewhere (`serve --media DIR`) are found with --media.
        let elsewhere = url.appendingPathComponent("uploads", isDirectory: true)
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let far = elsewhere.appendingPathComponent(String(repeating: "c", count: 64) + ".mp4").path
        #expect(FileManager.default.createFile(atPath: far, contents: Data("video".utf8)))
        let id = try await db.saveSession(SessionRecord(filePath: far, fileSHA256: String(repeating: "0", count: 64), createdAt: Date(),
                                                        durationSeconds: 30, fps: 30, hand: .right, stats: SessionStats(shotCount: 0)), shots: [])
        await #expect(try home.run(["delete", "\(id)", "--media", elsewhere.path]).status == 0)
        #expect(!exists(far))
    }
}
