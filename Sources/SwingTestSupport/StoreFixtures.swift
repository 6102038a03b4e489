import Foundation
import SwingBiomech
import SwingCore
import SwingStore

/// Records the store suites save and read back (the SQLite suites and the conformance suite over both stores).
package enum StoreFixtures {
    /// A session row of a 61.2-s, 60-fps video named `name`, analysed at `seconds` since 1970.
    package static func session(_ name: String, at seconds: Double) -> SessionRecord {
        SessionRecord(filePath: "/videos/\(name)", fileSHA256: String(repeating: "ab", count: 32),
                      createdAt: Date(timeIntervalSince1970: seconds), durationSeconds: 61.2, fps: 60,
                      hand: .right, stats: SessionStats(shotCount: 2, consistency: 63.5))
    }

    /// Shot `index` (every 2.5 s), measured, with one frame of its arc.
    package static func shot(_ index: Int) -> ShotRecord {
        ShotRecord(Shot(index: index, time: Double(index) * 2.5, contactTime: Double(index) * 2.5, confidence: 0.9, status: .ok,
                        contact: ContactPoint(forwardCm: 41.2, lateralCm: 58, heightCm: 96.3), wristSpeedCmS: 812,
                        classification: .optimal, contactVideoFrame: 150 * index,
                        arc: SwingArc(body: [ArcPoint(forwardCm: 40, lateralCm: 57, heightCm: 95, time: 2.4)], image: nil)),
                   frames: [ShotFrame(time: 2.4, videoFrame: 144, image: nil, body: [[40, 57, 95]])])
    }
}
