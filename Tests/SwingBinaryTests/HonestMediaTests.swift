import Foundation
import SwingTestSupport
import SwingCore
import Testing

/// A file cut short (an interrupted copy or upload) keeps the full duration in its header (issue #16,
/// "honest media"): the run must measure what decoded, refuse it below `--min-duration` as a short file,
/// and otherwise say in a warning and in the JSON how much of the stated span it covered.
@Suite(.serialized) struct HonestMediaTests {
    static let sample = TestFiles.packageRoot.appendingPathComponent("Samples/demo_session.mp4")

    struct ContactsJSON: Decodable { var duration: Double; var statedDuration: Double }
    struct SessionJSON: Decodable {
        struct Session: Decodable { var duration: Double; var statedDuration: Double?; var warnings: [String] }
        var session: Session
    }

    /// The sample's first `fraction` of bytes (its index is at the front, so every cut still opens).
    static func cut(_ fraction: Double, in dir: URL) throws -> URL {
        let bytes = try Data(contentsOf: sample)
        let url = dir.appendingPathComponent("cut-\(Int(fraction * 100)).mp4")
        try bytes.prefix(Int(Double(bytes.count) * fraction)).write(to: url)
        return url
    }

    @Test("contacts on cuts from 10 % to the whole file: refused below --min-duration, else the shortfall is said",
          arguments: [0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 0.97, 1.0])
    func contactsSaysWhatDecoded(fraction: Double) async throws {
        let dir = try TestFiles.temporaryDirectory("honest")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try Self.cut(fraction, in: dir)
        let out = try await SwingmasterBinary.run(["contacts", file.path, "--json"])
        if out.status == StatusCode.mediaTooShort {
            #expect(out.stderr.contains("could be decoded") && out.stderr.contains("at least 5 s"), "\(out.stderr)")
            return
        }
        #expect(out.status == 0, "status \(out.status): \(out.stderr)")
        let json = try JSONDecoder().decode(ContactsJSON.self, from: out.data)
        #expect(json.duration >= 5, "\(json.duration) s decoded was accepted although --min-duration is 5 s")
        #expect(abs(json.statedDuration - 12) < 0.1)
        let short = json.duration < json.statedDuration - 0.5
        #expect(out.stderr.contains("could be decoded") == short,
                "decoded \(json.duration) of \(json.statedDuration) s; stderr: \(out.stderr)")
        if fraction == 1.0 { #expect(!short) }
        if fraction <= 0.2 { Issue.record("a \(Int(fraction * 100)) % cut decoded \(json.duration) s and was accepted") }
    }

    @Test("analyze on a cut file: the session document carries the decoded and the stated span, and the warning")
    func analyzeSaysWhatDecoded() async throws {
        let dir = try TestFiles.temporaryDirectory("honest")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try Self.cut(0.8, in: dir)
        let out = try await SwingmasterBinary.run(["analyze", file.path, "--hand", "right", "--no-store", "--json", "-"])
        #expect(out.status == 0, "status \(out.status): \(out.stderr)")
        let doc = try JSONDecoder().decode(SessionJSON.self, from: out.data)
        #expect(doc.session.duration < 11, "decoded \(doc.session.duration) s")
        #expect(abs((doc.session.statedDuration ?? 0) - 12) < 0.1)
        #expect(doc.session.warnings.contains { $0.contains("could be decoded") }, "\(doc.session.warnings)")
    }
}
