import Foundation
import SwingTestSupport
import Testing

/// Ctrl-C during `detect --save` and `pose --save` on a video: the command stops with 130 and one sentence,
/// and leaves neither the output nor its temporary file (before, SIGINT killed the process mid-write and
/// left a `.swingmaster-…` file behind).
@Suite(.serialized) struct InterruptTests {
    static let sample = TestFiles.packageRoot.appendingPathComponent("Samples/demo_session.mp4").path
    static let model = TestFiles.packageRoot.appendingPathComponent("Tests/SwingVisionTests/Fixtures/yolo/tiny26-detect.onnx").path

    @Test(arguments: [["detect", "--model", model, "--no-store"], ["pose"]])
    func ctrlCLeavesNoOutput(command: [String]) async throws {
        let dir = try TestFiles.temporaryDirectory("interrupt")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Long enough that the frame loop is certainly running when the signal comes (36 s at 60 fps).
        let long = dir.appendingPathComponent("long.mp4").path
        try TestFiles.ffmpeg(["-stream_loop", "2", "-i", Self.sample, "-vf", "fps=60", "-t", "36",
                                         "-c:v", "libx264", "-preset", "ultrafast", "-an", long])
        let out = dir.appendingPathComponent("out.mp4")
        // Wait until the annotated video is being written (its temporary file exists), then interrupt.
        @Sendable func written() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0 != "long.mp4" }
        }
        let run = try await SwingmasterBinary.interrupt([command[0], long] + command.dropFirst() + ["--save", out.path],
                                                  delay: 0.3, ready: { !written().isEmpty })
        #expect(run.wasRunning, "\(command[0]) ended before it could be interrupted")
        #expect(run.status == 130, "status \(run.status): \(run.stderr)")
        #expect(run.stderr.contains("cancelled; nothing was written"), "\(run.stderr)")
        #expect(written().isEmpty, "left behind: \(written())")
    }
}
