import Foundation
import SwingCore
@testable import SwingVision

/// Shared helpers for the SwingVision tests.
enum TestSupport {
    /// A frame of card detections, each with a dummy box.
    static func cards(_ labels: [String], confidence: Double = 0.9) -> InterpreterFrame {
        InterpreterFrame(detections: labels.enumerated().map { i, l in
            Detection(classId: i, label: l, confidence: confidence,
                      box: Rect(x1: Double(i), y1: 0, x2: Double(i) + 10, y2: 10))
        }, width: 640, height: 480)
    }

    /// The `Fixtures` resource directory of this test target.
    static var fixtures: URL {
        Bundle.module.resourceURL?.appendingPathComponent("Fixtures")
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures")
    }

}
