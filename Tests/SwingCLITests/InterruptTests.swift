import Foundation
import SwingTestSupport
import Testing

/// Ctrl-C during `detect --save` and `pose --save` on a video: the command stops with 130 and one sentence,
/// and leaves neither the output nor its temporary file (before, SIGINT killed the process mid-write and
/// left a `.swingmaster-…` file behind).
@Suite(.serialized) struct InterruptTests {
    static let sample = SwingmasterBinary.packageRoot.appendingPathComponent("Samples/demo_session.mp4").path
    static let model = SwingmasterBinary.packageRoot.appendingPathComponent("Tests/SwingVisionTests/Fixtures/yolo/tiny26-detect.onnx").path

    @Test(arguments: [["detect", "--model", model, "--no-store"], ["pose"]])
    func ctrlCLeavesNoOutput(command: [String]) throws {
        let dir = try SwingmasterBinary.tempDir("interrupt")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Long enough that the frame loop is certainly running when the signal comes (36 s at 60 fps).
        let long = dir.appendingPathComponent("long.mp4").path
        try TestFiles.ffmpeg(["-stream_loop", "2", "-i", Self.sample, "-vf", "fps=60", "-t", "36",
                                         "-c:v", "libx264", "-preset", "ultrafast", "-an", long])
        let out = dir.appendingPathComponent("out.mp4")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: SwingmasterBinary.path)
        p.arguments = [command[0], long] + command.dropFirst() + ["--save", out.path]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = Pipe()
        try p.run()
        // Wait until the annotated video is being written (its temporary file exists), then interrupt.
        func written() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0 != "long.mp4" }
        }
        let deadline = Date().addingTimeInterval(60)
        while written().isEmpty, p.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(p.isRunning, "\(command[0]) ended before it could be interrupted")
        Thread.sleep(forTimeInterval: 0.3)
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(p.terminationStatus == 130, "status \(p.terminationStatus): \(stderr)")
        #expect(stderr.contains("cancelled; nothing was written"), "\(stderr)")
        #expect(written().isEmpty, "left behind: \(written())")
    }
}
