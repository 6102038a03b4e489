import Foundation
import SwingBiomech
import SwingCore
import SwingTestSupport
import Testing
import SwingMedia
import SwingPipeline
import SwingStore

/// One session document: `analyze --json`, `sessions export --json` (and the server, which serves the same
/// stored bytes) agree byte for byte, the CSV is one renderer, and the shot view's skeleton is the one the
/// metrics were measured on.
@Suite(.serialized) struct SessionDocumentTests {
    static let sample = TestFiles.packageRoot.appendingPathComponent("Samples/demo_session.mp4").path

    @Test func analyzeAndExportPrintTheSameBytesAndTheShotViewMatchesTheMetrics() async throws {
        let home = try TestFiles.temporaryDirectory("document-home")
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["SWINGMASTER_HOME": home.path]
        let json = home.appendingPathComponent("s.json"), csv = home.appendingPathComponent("s.csv")
        let annotated = home.appendingPathComponent("s.mp4"), highlights = home.appendingPathComponent("h.mp4")
        // Pose runs at half the display size: every image coordinate a user sees must still be in display pixels.
        // At the heard times (--sound-delay-ms 0): the demo's walkers swing no racket, and windows reaching
        // 0.3 s earlier would take in a walker crossing another, whose joined track the arc check below is not about.
        let out = try await InProcess.run(["analyze", Self.sample, "--hand", "right", "--json", json.path, "--csv", csv.path,
                                             "--max-pose-side", "640", "--save-video", annotated.path, "--sound-delay-ms", "0",
                                             "--save-highlights", highlights.path],
                                            environment: env)
        #expect(out.status == 0, "stderr: \(out.stderr)")
        let analyzed = try Data(contentsOf: json)
        let document = try SessionDocument.decode(analyzed)
        let id = try #require(document.session.id)

        let exported = try await InProcess.run(["sessions", "export", "\(id)", "--json"], environment: env)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.data == analyzed + Data("\n".utf8), "export --json differs from analyze --json")
        let db = try AppDatabase.open(home: home)
        #expect(try await SessionArchive.documentJSON(id: id, in: db) == analyzed)
        // Decoding and encoding again changes nothing (what a reader of the API gets is what was stored).
        #expect(try document.jsonData() == analyzed)

        let exportedCSV = try await InProcess.run(["sessions", "export", "\(id)", "--csv"], environment: env)
        #expect(exportedCSV.stdout == (try String(contentsOf: csv, encoding: .utf8)))
        #expect(exportedCSV.stdout.split(separator: "\n").count == document.session.shots.count + 1)

        // The CSV ends each row with the body measures at contact, the document's numbers to 3 decimals.
        let rows = exportedCSV.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = try #require(rows.first)
        for (shot, row) in zip(document.session.shots, rows.dropFirst()) where shot.status == .ok {
            for measure in BodyMeasure.allCases {
                let column = try #require(header.firstIndex(of: measure.rawValue), "no \(measure.rawValue) column")
                let value = try #require(shot.angles?[measure], "shot \(shot.index) has no \(measure.rawValue)")
                #expect(row[column] == String(format: "%.3f", value))
            }
        }

        // The pose for OpenSim: every posed frame of the stored track as markers, the measures over time;
        // OpenSim's own readers take both files. An export into a missing folder writes nothing.
        let trc = home.appendingPathComponent("s.trc"), mot = home.appendingPathComponent("s.mot")
        let opensim = try await InProcess.run(["sessions", "export", "\(id)", "--trc", trc.path, "--mot", mot.path], environment: env)
        #expect(opensim.status == 0, "\(opensim.stderr)")
        let stored = try #require(try await db.sessionTrack(id: id))
        let posed = try TrackArchive.decode(stored.track).samples.filter(\.hasPose)
        let read = try OpenSimReader.read(trc: trc, mot: mot)
        #expect(read.trc?.frames == posed.count && read.trc?.markers.count == 33 && read.trc?.dataRate == document.session.fps)
        #expect(read.mot?.rows == posed.count && read.mot?.columns == BodyMeasure.allCases.map(\.rawValue))
        // One shot's swing: exactly the frames the shot view shows, and OpenSim reads it; a shot the session
        // does not have is refused in one sentence and writes nothing.
        let measured = try #require(document.session.shots.firstIndex { $0.status == .ok }) + 1
        let swing = try #require(try await SessionArchive.shotView(id: id, number: measured, in: db)).frames
        let shotTRC = home.appendingPathComponent("shot.trc"), shotMOT = home.appendingPathComponent("shot.mot")
        let oneShot = try await InProcess.run(["sessions", "export", "\(id)", "--shot", "\(measured)", "--trc", shotTRC.path,
                                                 "--mot", shotMOT.path], environment: env)
        #expect(oneShot.status == 0, "\(oneShot.stderr)")
        let readShot = try OpenSimReader.read(trc: shotTRC, mot: shotMOT)
        #expect(readShot.trc?.frames == swing.count && readShot.mot?.rows == swing.count && swing.count > 2)
        #expect(readShot.trc.map { abs($0.times[0] - (swing.first?.time ?? -1)) < 1e-6 && abs($0.times[1] - (swing.last?.time ?? -1)) < 1e-6 } == true)
        let noShot = home.appendingPathComponent("none.trc")
        let past = try await InProcess.run(["sessions", "export", "\(id)", "--shot", "99", "--trc", noShot.path], environment: env)
        #expect(past.status == 41 && past.stderr.contains("no shot 99"), "\(past.status): \(past.stderr)")
        #expect(!FileManager.default.fileExists(atPath: noShot.path))
        // An export never overwrites what it reads: the session's video (a copy here, so a failure cannot cost
        // the checkout its sample), nor the database.
        let copy = home.appendingPathComponent("copy.mp4")
        try FileManager.default.copyItem(atPath: Self.sample, toPath: copy.path)
        let second = try await InProcess.run(["analyze", copy.path, "--hand", "right", "--duration", "6", "--min-duration", "5",
                                                "--json", home.appendingPathComponent("copy.json").path], environment: env)
        #expect(second.status == 0, "\(second.stderr)")
        let copyId = try #require(try SessionDocument.decode(Data(contentsOf: home.appendingPathComponent("copy.json"))).session.id)
        let videoBefore = try SHA256.hex(ofFile: copy.path)
        for (flag, path) in [("--trc", copy.path), ("--mot", home.appendingPathComponent("swingmaster.sqlite").path),
                             ("--highlights", copy.path)] {
            let clash = try await InProcess.run(["sessions", "export", "\(copyId)", flag, path], environment: env)
            #expect(clash.status == 64 && clash.stderr.contains("is the input"), "\(flag) \(path): \(clash.status) \(clash.stderr)")
        }
        #expect(try SHA256.hex(ofFile: copy.path) == videoBefore)
        #expect(try await SessionArchive.document(id: copyId, in: db) != nil, "the database was overwritten")
        let alone = try await InProcess.run(["sessions", "export", "\(id)", "--shot", "1", "--csv"], environment: env)
        #expect(alone.status == 64 && alone.stderr.contains("--trc or --mot"), "\(alone.status): \(alone.stderr)")
        let missing = home.appendingPathComponent("no/such/folder/s.trc")
        let refused = try await InProcess.run(["sessions", "export", "\(id)", "--trc", missing.path], environment: env)
        #expect(refused.status == 17 && refused.stderr.contains("no/such/folder"), "\(refused.status): \(refused.stderr)")

        // The highlights: a chapter per shot, named by number and stroke; `sessions export --highlights` cuts the
        // same reel from the stored session, and says so when the video is not where it was.
        struct Probe: Decodable {
            struct Chapter: Decodable { var tags: [String: String] }
            struct Format: Decodable { var duration: String }
            var chapters: [Chapter]; var format: Format
        }
        func probe(_ url: URL) throws -> Probe {
            try JSONDecoder().decode(Probe.self, from: Subprocess.output("ffprobe", ["-v", "error", "-show_chapters", "-show_format", "-of", "json", url.path]))
        }
        let reel = try probe(highlights)
        #expect(reel.chapters.map { $0.tags["title"] } == document.session.shots.map { "Shot \($0.index) · \(($0.stroke?.rawValue ?? "").capitalized)" })
        let clips = SessionHighlights.clips(document)
        #expect(abs((Double(reel.format.duration) ?? 0) - clips.reduce(0) { $0 + $1.end - $1.start }) < 0.25)
        let again = home.appendingPathComponent("again.mp4")
        let exportedReel = try await InProcess.run(["sessions", "export", "\(id)", "--highlights", again.path], environment: env)
        #expect(exportedReel.status == 0 && exportedReel.stdout.contains("Highlights of session \(id)"), "\(exportedReel.stderr)")
        #expect(try probe(again).chapters.map { $0.tags["title"] } == reel.chapters.map { $0.tags["title"] })
        let moved = try await InProcess.run(["sessions", "export", "\(id)", "--highlights", again.path, "--video", "/nonexistent/clip.mp4"],
                                              environment: env)
        #expect(moved.status == 10 && moved.stderr.contains("--video"), "\(moved.status): \(moved.stderr)")

        // `sessions show` is the same table as analyze's summary (without the timings).
        let shown = try await InProcess.run(["sessions", "show", "\(id)"], environment: env)
        #expect(out.stdout.hasPrefix(shown.stdout.trimmingCharacters(in: .newlines)), "show:\n\(shown.stdout)\nanalyze:\n\(out.stdout)")

        // The shot view: every shot with a person has posed frames whose dominant wrist brackets the
        // reported contact point (the metrics interpolate between the frames either side of contactTime;
        // frames are stored to 0.1 cm, so 0.1 cm of slack).
        #expect(document.session.width == 1280 && document.session.height == 720)
        let wrist = SkeletonJoints.wristPosition(of: .right)
        for shot in document.session.shots where shot.status == .ok {
            let view = try #require(try await SessionArchive.shotView(id: id, number: shot.index, in: db))
            #expect(view.shot == shot && view.shotCount == document.session.shots.count)
            #expect(view.frames.count > 5, "shot \(shot.index) has \(view.frames.count) frames")
            for frame in view.frames {
                let image = try #require(frame.image)
                #expect(image.count == 17 && image.allSatisfy { $0[0] >= -200 && $0[0] <= 1480 && $0[1] >= -200 && $0[1] <= 920 })
            }
            let contact = try #require(shot.contact), ground = try #require(shot.groundCm)
            let before = try #require(view.frames.last { $0.time <= shot.contactTime }?.body?[wrist])
            let after = try #require(view.frames.first { $0.time >= shot.contactTime }?.body?[wrist])
            func between(_ v: Double, _ a: Double, _ b: Double) -> Bool { v >= min(a, b) - 0.1 && v <= max(a, b) + 0.1 }
            #expect(between(contact.forwardCm, before[0], after[0]), "shot \(shot.index) forward \(contact.forwardCm) vs \(before[0])…\(after[0])")
            #expect(between(contact.lateralCm, before[1], after[1]), "shot \(shot.index) lateral")
            #expect(between(contact.heightCm + ground, before[2], after[2]), "shot \(shot.index) height")
            // The same for the body's angles: each frame carries its own, and the shot's lie between them.
            let anglesBefore = try #require(view.frames.last { $0.time <= shot.contactTime }?.angles)
            let anglesAfter = try #require(view.frames.first { $0.time >= shot.contactTime }?.angles)
            for measure in BodyMeasure.allCases where measure.isAngle && measure != .shoulderHipSeparation {
                let v = try #require(shot.angles?[measure]), a = try #require(anglesBefore[measure]), b = try #require(anglesAfter[measure])
                #expect(between(v, a, b), "shot \(shot.index) \(measure.rawValue) \(v) vs \(a)…\(b)")
            }

            // The wrist arc the shot view draws over the video follows the skeleton's wrist (both in display
            // pixels; the arc is smoothed, so it passes within a few pixels, not through every joint).
            let arc = try #require(shot.arc?.image)
            let gaps = view.frames.compactMap { frame -> Double? in
                guard let joint = frame.image?[wrist], let point = arc.first(where: { abs($0.time - frame.time) < 1e-6 }) else { return nil }
                return hypot(point.x - joint[0], point.y - joint[1])
            }.sorted()
            #expect(gaps.count > 5 && gaps[gaps.count / 2] < 15, "shot \(shot.index): arc to wrist \(gaps) px")
        }

        // The annotated video: the analysed part at the pose size, every contact frame outlined in red and
        // the frames away from contacts not.
        let reader = try VideoFrameReader(path: annotated.path)
        #expect(reader.outputSize.width == 640 && reader.outputSize.height == 360)
        let contacts = Set(document.session.shots.filter { $0.status == .ok }.compactMap(\.contactVideoFrame))
        #expect(!contacts.isEmpty)
        var outlined = Set<Int>(), frames = 0
        while let frame = try reader.nextFrame() {
            let i = (180 * frame.image.width + 2) * 3   // the left edge, half-way down (packed RGB)
            let (r, g, b) = (frame.image.pixels[i], frame.image.pixels[i + 1], frame.image.pixels[i + 2])
            if r > 180 && g < 90 && b < 90 { outlined.insert(frames) }
            frames += 1
        }
        #expect(abs(Double(frames) - document.session.duration * document.session.fps) <= 2, "\(frames) frames")
        #expect(outlined == contacts, "outlined \(outlined.sorted()) vs contacts \(contacts.sorted())")
        #expect(try await SessionArchive.shotView(id: id, number: document.session.shots.count + 1, in: db) == nil)
        #expect(try await SessionArchive.shotView(id: id + 1, number: 1, in: db) == nil)
    }
}
