import Foundation
import SwingTestSupport
import Testing
import SwingCore

/// `swingmaster measure` end to end through the real binary.
@Suite struct MeasureCommandTests {
    /// A 60 fps, 5 s track of a still player facing away from the camera (r = +x, f = +z) whose right
    /// wrist sits 41.2 cm forward, 58 cm to the right and 0.7 cm below the pelvis, lowest foot 97 cm down.
    /// `mirror` produces the left-handed mirror image (x → −x, left/right landmarks swapped).
    static func trackJSON(mirror: Bool = false, landmarks: Int = 33, noPerson: Bool = false) -> Data {
        let pairs = [(1, 4), (2, 5), (3, 6), (7, 8), (9, 10), (11, 12), (13, 14), (15, 16), (17, 18),
                     (19, 20), (21, 22), (23, 24), (25, 26), (27, 28), (29, 30), (31, 32)]
        var frames: [String] = []
        for i in 0..<300 {
            let t = Double(i) / 60
            // World: x right, y down, z away. Pelvis at the origin.
            var w = (0..<33).map { k in (0.01 * Double(k % 4), -0.02 * Double(k), 0.0) }
            w[23] = (-0.12, 0.02, 0); w[24] = (0.12, -0.02, 0)
            w[11] = (-0.18, -0.5, 0); w[12] = (0.18, -0.5, 0)   // an adult's 50-cm trunk, the unit of Early / Optimal / Late
            w[16] = (0.58, 0.007, 0.412 + 0.5 * (t - 2.5))     // moving forward at 0.5 m/s
            w[29] = (-0.1, 0.95, 0); w[30] = (0.1, 0.97, 0.05); w[31] = (-0.1, 0.93, 0.1); w[32] = (0.1, 0.96, 0.12)
            if mirror {
                w = w.map { (-$0.0, $0.1, $0.2) }
                for (a, b) in pairs { w.swapAt(a, b) }
            }
            let pts = noPerson ? "" : w.prefix(landmarks).map { "{\"x\":\($0.0),\"y\":\($0.1),\"z\":\($0.2)}" }.joined(separator: ",")
            frames.append("{\"index\":\(i),\"time\":\(t),\"score\":0.9,\"worldLandmarks\":[\(pts)]}")
        }
        return Data("{\"source\":\"synthetic\",\"frames\":[\(frames.joined(separator: ","))]}".utf8)
    }

    static let contactsJSON = Data(#"{"contacts":[{"time":2.5,"confidence":0.91},{"time":9.0,"confidence":0.4}]}"#.utf8)

    struct Report: Decodable {
        struct Contact: Decodable { var forwardCm, lateralCm, heightCm: Double }
        struct Arc: Decodable { var body: [[Double]]; var image: [[Double]]? }
        struct Shot: Decodable {
            var index: Int; var time: Double; var confidence: Double; var status: String
            var contact: Contact?; var wristSpeedCmS: Double?; var classification: String?; var arc: Arc?
        }
        struct Axis: Decodable { var meanCm, sdCm: Double }
        struct Stats: Decodable { var shotCount: Int; var forward: Axis?; var consistency: Double? }
        var shots: [Shot]; var stats: Stats
    }

    func measure(track: Data, contacts: Data = contactsJSON, _ extra: [String]) async throws -> SwingmasterBinary.Output {
        let dir = try TestFiles.temporaryDirectory("measure")
        defer { try? FileManager.default.removeItem(at: dir) }
        let t = dir.appendingPathComponent("track.json"), c = dir.appendingPathComponent("contacts.json")
        try track.write(to: t)
        try contacts.write(to: c)
        // Still skeletons: the swing check (SwingCheckTests) would rightly turn their contacts down.
        return try await InProcess.run(["measure", "--track", t.path, "--contacts", c.path, "--no-swing-check"] + extra)
    }

    @Test func jsonReportHasTheKnownContactPoint() async throws {
        let out = try await measure(track: Self.trackJSON(), ["--hand", "right", "--json"])
        #expect(out.status == 0, "\(out.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: out.data)
        #expect(report.shots.map(\.status) == ["ok", "noPerson"])
        let c = try #require(report.shots[0].contact)
        #expect(abs(c.forwardCm - 41.2) < 1e-6)
        #expect(abs(c.lateralCm - 58.0) < 1e-6)
        #expect(abs(c.heightCm - 96.3) < 1e-6)
        #expect(abs(try #require(report.shots[0].wristSpeedCmS) - 50) < 1e-6)
        #expect(report.shots[0].classification == "optimal")
        #expect(report.shots[0].arc?.image == nil, "measure --json has no image arc")
        #expect(report.shots[0].arc?.body.first?.count == 4)
        #expect(report.stats.shotCount == 1 && report.stats.consistency == 100)
    }

    @Test func leftHandedMirrorImageGivesTheSameNumbers() async throws {
        let right = try await JSONDecoder().decode(Report.self, from: try measure(track: Self.trackJSON(), ["--json"]).data)
        let out = try await measure(track: Self.trackJSON(mirror: true), ["--hand", "left", "--json"])
        let left = try JSONDecoder().decode(Report.self, from: out.data)
        let a = try #require(right.shots[0].contact), b = try #require(left.shots[0].contact)
        #expect(abs(a.forwardCm - b.forwardCm) < 1e-9 && abs(a.lateralCm - b.lateralCm) < 1e-9 && abs(a.heightCm - b.heightCm) < 1e-9)
    }

    @Test func flagsChangeTheResult() async throws {
        // 100 ms sound delay: the wrist (0.5 m/s forward) was 5 cm further back at t_c.
        let delayed = try await JSONDecoder().decode(Report.self, from: try measure(track: Self.trackJSON(), ["--json", "--sound-delay-ms", "100"]).data)
        #expect(abs((delayed.shots[0].contact?.forwardCm ?? 0) - 36.2) < 1e-6)
        let strict = try await JSONDecoder().decode(Report.self, from: try measure(track: Self.trackJSON(), ["--json", "--late-below-cm", "45"]).data)
        #expect(strict.shots[0].classification == "late")
    }

    @Test func tableIsPrintedWithoutJSON() async throws {
        let out = try await measure(track: Self.trackJSON(), [])
        #expect(out.status == 0)
        #expect(out.stdout.contains("41.2") && out.stdout.contains("optimal") && out.stdout.contains("no person"))
        #expect(out.stdout.contains("Consistency: 100.0"))
    }

    @Test func malformedTrackIsInvalidTrack() async throws {
        let out = try await measure(track: Data("{\"frames\": [".utf8), ["--json"])
        #expect(out.status == StatusCode.invalidTrack)
        #expect(out.stderr.hasPrefix("error: ") && out.stderr.contains("not valid pose JSON"))
        #expect(out.stdout.isEmpty)
    }

    @Test func wrongLandmarkCountIsInvalidTrack() async throws {
        let out = try await measure(track: Self.trackJSON(landmarks: 17), ["--json"])
        #expect(out.status == StatusCode.invalidTrack)
        #expect(out.stderr.contains("17 world landmarks"))
    }

    @Test func noPersonAtAnyContactIsAnError() async throws {
        let out = try await measure(track: Self.trackJSON(noPerson: true), ["--json"])
        #expect(out.status == StatusCode.noPerson)
        #expect(out.stderr.contains("No person"))
    }

    @Test func missingFileAndBadFlagsAreReported() async throws {
        let missing = try await InProcess.run(["measure", "--track", "/nonexistent/t.json", "--contacts", "/nonexistent/c.json"])
        #expect(missing.status == StatusCode.fileNotFound)
        let bad = try await measure(track: Self.trackJSON(), ["--late-below-cm", "70"])
        #expect(bad.status != 0 && bad.stderr.contains("must not exceed"))
    }
}
