import ArgumentParser
import Foundation
import SwingTestSupport
import SwingBiomech
import SwingCore

/// `swingbench biomech` — biomechanics throughput on a generated session-length track, against the
/// numpy reference (`tools/reference_measure.py`) on the same files when a Python is available.
struct BiomechBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "biomech",
        abstract: "Time `measure` (JSON decode + metrics) on a long generated track; numpy reference as peer."
    )

    @Option(help: "Track length in minutes.") var minutes = 10.0
    @Option(help: "Frame rate of the generated track.") var fps = 60.0
    @Option(help: "Number of contacts, evenly spread.") var contacts = 120
    @Option(help: "Python for the peer (default $SWINGMASTER_PYTHON, skipped when unset).") var python: String?
    @Option(help: "Path of tools/reference_measure.py.") var reference = "tools/reference_measure.py"

    func run() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swingbench-biomech-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let trackURL = dir.appendingPathComponent("track.json"), contactsURL = dir.appendingPathComponent("contacts.json")
        let frameCount = Int(minutes * 60 * fps)
        try Self.trackJSON(frames: frameCount, fps: fps).write(to: trackURL)
        let times = (0..<contacts).map { (Double($0) + 0.5) * minutes * 60 / Double(contacts) }
        let contactsText = "{\"contacts\":[" + times.map { "{\"time\":\($0),\"confidence\":0.9}" }.joined(separator: ",") + "]}"
        try Data(contactsText.utf8).write(to: contactsURL)

        let t0 = DispatchTime.now().uptimeNanoseconds
        let track = try MeasureIO.decodeTrack(try Data(contentsOf: trackURL))
        let events = try MeasureIO.decodeContacts(try Data(contentsOf: contactsURL))
        let t1 = DispatchTime.now().uptimeNanoseconds
        let result = BiomechAnalyzer.analyze(track: track, contacts: events, parameters: BiomechParameters())
        let t2 = DispatchTime.now().uptimeNanoseconds
        let decode = Double(t1 - t0) / 1e9, metrics = Double(t2 - t1) / 1e9
        print(String(format: "biomech: %d frames, %d contacts (%d ok): decode %.3f s, metrics %.4f s (%.1f µs/contact), total %.3f s",
                     frameCount, events.count, result.stats.shotCount, decode, metrics, metrics / Double(max(events.count, 1)) * 1e6,
                     decode + metrics))

        guard let python = python ?? ProcessInfo.processInfo.environment["SWINGMASTER_PYTHON"],
              FileManager.default.isExecutableFile(atPath: python) else {
            print("biomech: numpy peer skipped (no Python; set SWINGMASTER_PYTHON)")
            return
        }
        let run = try Subprocess.run(python, [reference, "--track", trackURL.path, "--contacts", contactsURL.path])
        guard run.succeeded else {
            print("biomech: numpy reference failed (status \(run.status)): \(run.stderr)")
            return
        }
        let peer = run.seconds
        print(String(format: "biomech: numpy reference (same files, incl. interpreter start) %.3f s; ratio peer/ours %.2fx",
                     peer, peer / (decode + metrics)))
    }

    /// A swinging player (turning hips, wrist on a circle) as `pose --json` text.
    static func trackJSON(frames: Int, fps: Double) -> Data {
        var out = "{\"frames\":["
        out.reserveCapacity(frames * 2_000)
        for i in 0..<frames {
            let t = Double(i) / fps
            let heading = 0.5 * sin(2 * Double.pi * t / 5)
            let (c, s) = (cos(heading), sin(heading))
            func p(_ a: Double, _ b: Double, _ up: Double) -> String {
                // body (forward a, right b, up) → world (x right, y down, z away).
                String(format: "{\"x\":%.5f,\"y\":%.5f,\"z\":%.5f}", b * c - a * s, -up, b * s + a * c)
            }
            var w = (0..<33).map { k in p(0.02 * Double(k % 3), 0.01 * Double(k % 5), 0.6 - 0.05 * Double(k)) }
            w[23] = p(0, -0.12, 0); w[24] = p(0, 0.12, 0)
            let phi = 2 * Double.pi * t / 5
            w[16] = p(0.7 * cos(phi), 0.3 + 0.4 * sin(phi), 0.3 * sin(phi))
            for k in 29...32 { w[k] = p(0.05 * Double(k - 29), k % 2 == 0 ? 0.15 : -0.15, -0.95 - 0.01 * Double(k - 29)) }
            out += (i == 0 ? "" : ",") + "{\"time\":\(t),\"score\":0.9,\"worldLandmarks\":[" + w.joined(separator: ",") + "]}"
        }
        return Data((out + "]}").utf8)
    }
}
