import ArgumentParser
import Foundation
import SwingCore
import SwingVision

/// `swingbench interpret` — per-frame overhead of each built-in interpreter on a frame of N detections
/// (goal: < 50 µs for 300). Detections mix COCO labels (rackets, balls, people) and card labels so every
/// interpreter does real work; the best of several rounds is reported to damp noise from other processes.
struct InterpreterBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "interpret", abstract: "Interpreter overhead per frame (goal < 50 µs for 300 detections).")

    @Option(help: "Detections per frame.") var detections = 300
    @Option(help: "Frames interpreted per round.") var iterations = 2000
    @Option(help: "Rounds (the best is reported).") var rounds = 5
    @Flag(help: "JSON output.") var json = false

    func run() throws {
        let frame = Self.frame(count: detections)
        var rows: [[String: Double]] = []
        var names: [String] = []
        for name in InterpreterRegistry.standard.names {
            let interpreter = try InterpreterRegistry.standard.interpreter(named: name)
            var best = Double.infinity
            var sink = 0
            for _ in 0..<rounds {
                let start = DispatchTime.now().uptimeNanoseconds
                for _ in 0..<iterations {
                    // Encoding is not timed; touching the result keeps the optimiser honest.
                    sink &+= withExtendedLifetime(interpreter.interpret(frame)) { 1 }
                }
                let us = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000 / Double(iterations)
                best = min(best, us)
            }
            precondition(sink > 0)
            names.append(name)
            rows.append(["microsecondsPerFrame": best, "detections": Double(detections)])
        }
        if json {
            let obj = Dictionary(uniqueKeysWithValues: zip(names, rows))
            let data = try JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys, .prettyPrinted])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print("interpreter overhead per frame, \(detections) detections (best of \(rounds) × \(iterations)); goal < 50 µs")
            for (n, r) in zip(names, rows) {
                let us = r["microsecondsPerFrame"] ?? 0
                print("  \(n.padding(toLength: 16, withPad: " ", startingAt: 0)) \(String(format: "%8.2f", us)) µs  \(us < 50 ? "ok" : "OVER GOAL")")
            }
        }
    }

    /// A 1280×720 frame with `count` detections cycling through realistic labels.
    static func frame(count: Int) -> InterpreterFrame {
        let labels = ["person", "tennis racket", "sports ball", "chair", "10H", "AS", "Qd", "Th", "2C", "bench",
                      "car", "tennis ball"]
        var rng = SystemRandomNumberGenerator()
        let dets = (0..<count).map { i -> Detection in
            let x = Double.random(in: 0..<1200, using: &rng), y = Double.random(in: 0..<650, using: &rng)
            return Detection(classId: i % labels.count, label: labels[i % labels.count],
                             confidence: Double.random(in: 0.2..<1, using: &rng),
                             box: Rect(x1: x, y1: y, x2: x + 40, y2: y + 40))
        }
        return InterpreterFrame(detections: dets, frameIndex: 0, time: 0, width: 1280, height: 720)
    }
}
