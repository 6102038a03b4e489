import Foundation
import SwingTestSupport
import SwingCore
import Testing

/// `analyze --detector MODEL` (audio + visual contact fusion) and catalog-id models in `detect`, run on
/// the real binary with the fixture of `tools/make_fusion_fixture.py`: a colour-keyed stand-in racket/ball
/// model and a clip whose truth file lists every hit, whether it is audible, and whether it is visible.
@Suite(.serialized) struct FusionCommandTests {
    static let dir = TestFiles.packageRoot.appendingPathComponent("Tests/SwingCLITests/Fixtures/fusion")
    static let clip = dir.appendingPathComponent("fusion_clip.mp4").path
    static let model = dir.appendingPathComponent("colour_standin.onnx").path
    /// The default detector stride (`--detector-stride`), the spec's every 3rd frame.
    static let stride = 3.0

    struct Truth: Decodable {
        struct Event: Decodable { var time: Double; var audible: Bool; var visible: Bool; var source: String }
        var duration: Double; var fps: Double; var events: [Event]
    }

    struct Doc: Decodable {
        struct Session: Decodable {
            struct Shot: Decodable { var index: Int; var time: Double; var status: String; var source: String?; var visualOffsetMs: Double? }
            struct Visual: Decodable {
                var framesProcessed: Int; var detectionCount: Int; var sources: [String: Int]; var scope: String
                var stride: Int; var toleranceSeconds: Double; var audioContacts: Int
            }
            var id: Int64?; var shots: [Shot]; var contactsHeard: Int; var visualDetector: Visual?
        }
        var session: Session
    }

    static func truth() throws -> Truth {
        try JSONDecoder().decode(Truth.self, from: Data(contentsOf: dir.appendingPathComponent("fusion_clip.truth.json")))
    }

    /// One processed-frame interval of the fixture at the default stride, seconds.
    static func interval(_ t: Truth) -> Double { stride / t.fps }

    /// Runs `analyze` on the fixture with JSON to a file; returns the run and the parsed document.
    static func analyze(_ extra: [String], home: URL) async throws -> (SwingmasterBinary.Output, Doc.Session?) {
        let json = home.appendingPathComponent("session-\(UUID().uuidString).json")
        // The fixture's player stands still between hits: the fusion, not the swing check, is tested here.
        let out = try await InProcess.run(["analyze", clip, "--hand", "right", "--json", json.path, "--no-swing-check"] + extra,
                                            environment: ["SWINGMASTER_HOME": home.path])
        let doc = out.status == 0 ? try JSONDecoder().decode(Doc.self, from: Data(contentsOf: json)).session : nil
        return (out, doc)
    }

    static func modelInfo(_ id: String, home: URL) async throws -> [String: Any] {
        let out = try await InProcess.run(["models", "info", id], environment: ["SWINGMASTER_HOME": home.path])
        try #require(out.status == 0, "\(out.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: out.data) as? [String: Any])
    }

    static func detections(_ out: SwingmasterBinary.Output) throws -> [[String: Any]] {
        let doc = try #require(try JSONSerialization.jsonObject(with: out.data) as? [String: Any], "\(out.stderr)")
        let results = try #require(doc["results"] as? [[String: Any]])
        return results.flatMap { ($0["detections"] as? [[String: Any]]) ?? [] }
    }

    @Test func everyHitComesFromTheRightSourceAtTheRightTime() async throws {
        let home = try TestFiles.temporaryDirectory("fusion-all")
        defer { try? FileManager.default.removeItem(at: home) }
        let truth = try Self.truth()
        let (out, doc) = try await Self.analyze(["--no-store", "--detector", Self.model], home: home)
        #expect(out.status == 0, "\(out.stderr)")
        let session = try #require(doc)
        let shots = session.shots.sorted { $0.time < $1.time }
        #expect(shots.map(\.source) == truth.events.map(\.source), "shots \(shots.map { ($0.time, $0.source ?? "-") })")
        for (shot, hit) in zip(shots, truth.events) {
            // Heard hits keep the audio time (the detector's ±20 ms); seen-only hits are timed by the
            // sampled frame, so within one processed-frame interval.
            let limit = hit.audible ? 0.02 : Self.interval(truth)
            #expect(abs(shot.time - hit.time) <= limit, "hit at \(hit.time) (\(hit.source)) reported at \(shot.time)")
            if hit.source == "both" {
                let offset = try #require(shot.visualOffsetMs, "no visual offset for the hit at \(hit.time)")
                #expect(abs(offset) <= Self.interval(truth) * 1000 + 1e-6)
            } else {
                #expect(shot.visualOffsetMs == nil)
            }
        }
        #expect(session.contactsHeard == truth.events.filter(\.audible).count)
        let visual = try #require(session.visualDetector)
        #expect(visual.framesProcessed == Int((truth.duration * truth.fps / Self.stride).rounded(.up)))
        #expect(visual.scope == "all" && visual.stride == Int(Self.stride))
        #expect(abs(visual.toleranceSeconds - 2 * Self.interval(truth)) < 1e-9)
        let count = { (s: String) in truth.events.filter { $0.source == s }.count }
        #expect(visual.sources == ["both": count("both"), "audio": count("audio"), "visual": count("visual")])
        // The summary says where the contacts came from and what the detector cost.
        #expect(out.stdout.contains("both \(count("both")), audio only \(count("audio")), visual only \(count("visual"))"), "\(out.stdout)")
        #expect(out.stdout.contains("detecting visual contacts"), "\(out.stdout)")
        #expect(out.stdout.contains("ms/frame model"), "\(out.stdout)")
    }

    @Test func windowsScopeOnlyConfirmsHitsInsideTheSwingWindows() async throws {
        let home = try TestFiles.temporaryDirectory("fusion-windows")
        defer { try? FileManager.default.removeItem(at: home) }
        let truth = try Self.truth()
        let (out, doc) = try await Self.analyze(["--no-store", "--detector", Self.model, "--detector-scope", "windows"], home: home)
        #expect(out.status == 0, "\(out.stderr)")
        let session = try #require(doc)
        let heard = truth.events.filter(\.audible)
        // Swing windows: 1.0 s before to 0.5 s after each heard contact (the analyze defaults).
        let inWindow = { (t: Double) in heard.contains { t >= $0.time - 1.0 && t <= $0.time + 0.5 } }
        #expect(!session.shots.contains { $0.source == "visual" && !inWindow($0.time) })
        // In the fixture the only unheard hit lies between windows, so what is left is the heard hits,
        // the visible ones confirmed by the detector.
        #expect(session.shots.sorted { $0.time < $1.time }.map(\.source) == heard.map(\.source))
        let visual = try #require(session.visualDetector)
        #expect(visual.scope == "windows")
        #expect(visual.framesProcessed < Int((truth.duration * truth.fps / Self.stride).rounded(.up)))
    }

    @Test func withoutADetectorShotsCarryNoSource() async throws {
        let home = try TestFiles.temporaryDirectory("fusion-none")
        defer { try? FileManager.default.removeItem(at: home) }
        let (out, doc) = try await Self.analyze(["--no-store"], home: home)
        #expect(out.status == 0, "\(out.stderr)")
        let session = try #require(doc)
        #expect(session.shots.count == (try Self.truth()).events.filter(\.audible).count)
        #expect(session.shots.allSatisfy { $0.source == nil } && session.visualDetector == nil)
        #expect(!out.stdout.contains("contacts fused"))
        let strayFlag = try await InProcess.run(["analyze", Self.clip, "--detector-scope", "windows"],
                                                  environment: ["SWINGMASTER_HOME": home.path])
        #expect(strayFlag.status == 64 && strayFlag.stderr.contains("needs --detector"), "\(strayFlag.stderr)")
    }

    @Test func detectByCatalogIdAppliesPreferencesAndRecordsEachRun() async throws {
        let home = try TestFiles.temporaryDirectory("fusion-catalog")
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["SWINGMASTER_HOME": home.path]
        let add = try await InProcess.run(["models", "add", Self.model, "--id", "racket-ball"], environment: env)
        try #require(add.status == 0, "\(add.stderr)")
        await #expect(try Self.modelInfo("racket-ball", home: home)["useCount"] as? Int == 0)

        let first = try await InProcess.run(["detect", Self.clip, "--model", "Racket-Ball", "--json"], environment: env)
        #expect(first.status == 0, "\(first.stderr)")
        let found = try Self.detections(first)
        #expect(found.contains { $0["label"] as? String == "tennis racket" } && found.contains { $0["label"] as? String == "sports ball" })
        var info = try await Self.modelInfo("racket-ball", home: home)
        #expect(info["useCount"] as? Int == 1 && info["lastUsedAt"] != nil)
        var sessions = try #require(info["runs"] as? [[String: Any]])
        let frames = try #require((try JSONSerialization.jsonObject(with: first.data) as? [String: Any])?["results"] as? [Any]).count
        #expect(sessions.count == 1)
        #expect(sessions.first?["frames"] as? Int == frames && sessions.first?["detections"] as? Int == found.count)
        #expect((sessions.first?["averageInferenceMs"] as? Double ?? 0) > 0)

        // The stand-in scores 0.9: a stored --conf above that removes every detection…
        let set = try await InProcess.run(["models", "set", "racket-ball", "--conf", "0.95"], environment: env)
        try #require(set.status == 0, "\(set.stderr)")
        let strict = try await InProcess.run(["detect", Self.clip, "--model", "racket-ball", "--json"], environment: env)
        #expect(strict.status == 0, "\(strict.stderr)")
        #expect(try Self.detections(strict).isEmpty)
        // …also when the catalog model is named by its installed path; an explicit flag wins.
        let installed = home.appendingPathComponent("models/racket-ball.onnx").path
        let byPath = try await InProcess.run(["detect", Self.clip, "--model", installed, "--json"], environment: env)
        #expect(byPath.status == 0, "\(byPath.stderr)")
        #expect(try Self.detections(byPath).isEmpty)
        let flag = try await InProcess.run(["detect", Self.clip, "--model", "racket-ball", "--conf", "0.5", "--json", "--no-store"],
                                             environment: env)
        #expect(flag.status == 0, "\(flag.stderr)")
        #expect(try Self.detections(flag).count == found.count)

        // A stored interpreter configuration is the default for --interpret; the flag wins.
        let config = try await InProcess.run(["models", "set", "racket-ball", "--interpreter-config", #"{"racketConfidence": 0.95}"#],
                                               environment: env)
        try #require(config.status == 0, "\(config.stderr)")
        func contacts(_ extra: [String]) async throws -> [Any] {
            let out = try await InProcess.run(["detect", Self.clip, "--model", "racket-ball", "--conf", "0.5", "--json", "--no-store",
                                                 "--interpret", "tennis-contact"] + extra, environment: env)
            try #require(out.status == 0, "\(out.stderr)")
            let doc = try #require(try JSONSerialization.jsonObject(with: out.data) as? [String: Any])
            return try #require((doc["interpretation"] as? [String: Any])?["contacts"] as? [Any])
        }
        await #expect(try contacts([]).isEmpty)                                    // racket 0.9 is not above 0.95
        await #expect(try contacts(["--interpreter-config", "{}"]).count == (try Self.truth()).events.filter(\.visible).count)

        // --no-store and plain files outside the catalog leave the record alone.
        let plain = try await InProcess.run(["detect", Self.clip, "--model", Self.model, "--json"], environment: env)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try Self.detections(plain).count == found.count)
        info = try await Self.modelInfo("racket-ball", home: home)
        sessions = try #require(info["runs"] as? [[String: Any]])
        #expect(info["useCount"] as? Int == 3 && sessions.count == 3, "\(info)")
        #expect(sessions.map { $0["detections"] as? Int } == [0, 0, found.count])   // newest first
    }

    @Test func plainFileRunsNeverCreateADatabase() async throws {
        let home = try TestFiles.temporaryDirectory("fusion-plain")
        defer { try? FileManager.default.removeItem(at: home) }
        let out = try await InProcess.run(["detect", Self.clip, "--model", Self.model], environment: ["SWINGMASTER_HOME": home.path])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("swingmaster.sqlite").path))
    }

    @Test func analyzeWithACatalogDetectorStoresSourcesAndCountsTheUse() async throws {
        let home = try TestFiles.temporaryDirectory("fusion-store")
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["SWINGMASTER_HOME": home.path]
        let truth = try Self.truth()
        try #require(try await InProcess.run(["models", "add", Self.model, "--id", "standin"], environment: env).status == 0)
        let (out, doc) = try await Self.analyze(["--detector", "standin"], home: home)
        #expect(out.status == 0, "\(out.stderr)")
        let session = try #require(doc)
        let id = try #require(session.id)
        let exported = try await InProcess.run(["sessions", "export", String(id), "--json"], environment: env)
        let stored = try #require(((try JSONSerialization.jsonObject(with: exported.data) as? [String: Any])?["session"]
                                   as? [String: Any])?["shots"] as? [[String: Any]], "\(exported.stderr)")
        #expect(stored.compactMap { $0["source"] as? String } == truth.events.map(\.source))
        #expect(stored.filter { $0["visualOffsetMs"] != nil }.count == truth.events.filter { $0.source == "both" }.count)
        let show = try await InProcess.run(["sessions", "show", String(id)], environment: env)
        #expect(show.stdout.contains("[visual]") && show.stdout.contains("[audio]"), "\(show.stdout)")

        var info = try await Self.modelInfo("standin", home: home)
        #expect(info["useCount"] as? Int == 1)
        let sessions = try #require(info["runs"] as? [[String: Any]])
        #expect(sessions.count == 1 && sessions.first?["frames"] as? Int == session.visualDetector?.framesProcessed)
        #expect(sessions.first?["detections"] as? Int == session.visualDetector?.detectionCount)

        // Stored preferences reach analyze too: above the stand-in's 0.9 nothing is seen, and --no-store
        // leaves the usage count alone.
        try #require(try await InProcess.run(["models", "set", "standin", "--conf", "0.95"], environment: env).status == 0)
        let (strictOut, strict) = try await Self.analyze(["--detector", "standin", "--no-store"], home: home)
        #expect(strictOut.status == 0, "\(strictOut.stderr)")
        #expect(strict?.shots.map(\.source) == truth.events.filter(\.audible).map { _ in "audio" })
        #expect(strict?.visualDetector?.detectionCount == 0)
        info = try await Self.modelInfo("standin", home: home)
        #expect(info["useCount"] as? Int == 1)
    }

    @Test func badDetectorModelsFailClearlyAndStoreNothing() async throws {
        let home = try TestFiles.temporaryDirectory("fusion-bad")
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["SWINGMASTER_HOME": home.path]
        let garbage = home.appendingPathComponent("garbage.onnx")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }).write(to: garbage)
        try #require(try await InProcess.run(["models", "add", DetectCommandTests.affine, "--id", "not-yolo"], environment: env).status == 0)

        let cases: [(args: [String], status: Int32, message: String)] = [
            (["analyze", Self.clip, "--hand", "right", "--detector", "/nonexistent/racket.onnx"], StatusCode.modelUnreadable, "swingmaster models list"),
            (["analyze", Self.clip, "--hand", "right", "--detector", "no-such-id"], StatusCode.modelUnreadable, "no catalog model has the id 'no-such-id'"),
            (["analyze", Self.clip, "--hand", "right", "--detector", garbage.path], StatusCode.modelUnreadable, "Could not load ONNX model"),
            (["analyze", Self.clip, "--hand", "right", "--detector", "not-yolo"], StatusCode.modelUnsupported, "YOLO"),
            (["detect", Self.clip, "--model", "not-yolo"], StatusCode.modelUnsupported, "YOLO"),
            (["detect", Self.clip, "--model", "no-such-id"], StatusCode.modelUnreadable, "swingmaster models list"),
        ]
        for c in cases {
            let out = try await InProcess.run(c.args, environment: env)
            #expect(out.status == c.status, "\(c.args): \(out.stderr)")
            #expect(out.stderr.contains("error: ") && out.stderr.contains(c.message), "\(c.args): \(out.stderr)")
            #expect(out.stdout.isEmpty, "\(c.args): \(out.stdout)")
        }
        let list = try await InProcess.run(["sessions", "list"], environment: env)
        #expect(list.stdout.contains("No sessions yet"), "\(list.stdout)")
        let info = try await Self.modelInfo("not-yolo", home: home)
        #expect(info["useCount"] as? Int == 0 && (info["runs"] as? [Any])?.isEmpty == true, "\(info)")
    }

    @Test func ctrlCDuringAFusedAnalysisStoresNothing() async throws {
        let home = try TestFiles.temporaryDirectory("fusion-sigint")
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["SWINGMASTER_HOME": home.path]
        try #require(try await InProcess.run(["models", "add", Self.model, "--id", "standin"], environment: env).status == 0)
        // The fixture loops four times (32 s) and every frame goes through the detector, so the run lasts
        // several seconds and Ctrl-C certainly lands while the detector or pose is working.
        let long = home.appendingPathComponent("fusion_long.mp4").path
        try TestFiles.ffmpeg(["-stream_loop", "3", "-i", Self.clip, "-c", "copy", long])
        let run = try await SwingmasterBinary.interrupt(["analyze", long, "--hand", "right", "--detector", "standin",
                                                   "--detector-stride", "1", "--pose-workers", "1"],
                                                  environment: ["SWINGMASTER_HOME": home.path], delay: 1.5)   // inside the detector or pose stage
        #expect(run.wasRunning && run.status == 130, "status \(run.status): \(run.stderr)")
        let list = try await InProcess.run(["sessions", "list"], environment: env)
        #expect(list.stdout.contains("No sessions yet"), "\(list.stdout)")
        let info = try await Self.modelInfo("standin", home: home)
        #expect(info["useCount"] as? Int == 0 && (info["runs"] as? [Any])?.isEmpty == true, "\(info)")
    }
}
