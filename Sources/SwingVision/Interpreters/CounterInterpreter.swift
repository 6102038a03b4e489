import SwingCore

/// Counts detections per label above a confidence threshold, per frame and over a video.
package struct CounterInterpreter: DetectionInterpreter {
    /// Options (all keys optional in JSON).
    package struct Configuration: Sendable, Codable, Equatable {
        /// Only detections with confidence strictly above this are counted. Default 0.25.
        package var minimumConfidence: Double
        /// Count only these labels (all when `nil` or empty).
        package var labels: [String]?
        /// With tracking: the line whose crossings are counted, normalised (default ``LineCrossings/Line/middle``,
        /// a horizontal line across the middle).
        package var line: LineCrossings.Line?
        package init(minimumConfidence: Double = 0.25, labels: [String]? = nil, line: LineCrossings.Line? = nil) {
            self.minimumConfidence = minimumConfidence; self.labels = labels; self.line = line
        }
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            minimumConfidence = try c.decodeIfPresent(Double.self, forKey: .minimumConfidence) ?? 0.25
            labels = try c.decodeIfPresent([String].self, forKey: .labels)
            line = try c.decodeIfPresent(LineCrossings.Line.self, forKey: .line)
            if let line, !line.isValid {
                throw DecodingError.dataCorruptedError(forKey: .line, in: c, debugDescription:
                    "line needs x1, y1, x2, y2 from 0 to 1 (fractions of the picture) and two different ends")
            }
        }

        /// A crossing counter for this configuration's line.
        package func crossingCounter() -> LineCrossings { LineCrossings(line: line ?? .middle) }

        /// Whether a detection of `label` and `confidence` counts (threshold and label filter).
        package func counts(label: String, confidence: Double) -> Bool {
            guard confidence > minimumConfidence else { return false }
            guard let labels, !labels.isEmpty else { return true }
            return labels.contains(label)
        }
    }

    /// Counts in one frame.
    package struct Result: Sendable, Encodable, Equatable {
        package var counts: [String: Int]
        package var total: Int
    }

    /// Counts over a video.
    package struct VideoResult: Sendable, Encodable {
        /// Sum of the per-frame counts (an object visible in 10 frames counts 10 times).
        package var totals: [String: Int]
        /// The most instances of each label seen in one frame — the usual answer to "how many were there".
        package var peak: [String: Int]
        /// In how many frames each label appeared.
        package var framesWithLabel: [String: Int]
        package var frameCount: Int
        package var frames: [InterpretedFrames<Result>.Entry]
        /// For a tracked video: the objects that crossed the configured line, per label and direction, and
        /// every crossing (`nil` when the frames carry no track ids).
        package var crossings: LineCrossings.Summary?
    }

    package let name = "counter"
    package var configuration: Configuration

    package init(configuration: Configuration = .init()) { self.configuration = configuration }

    package func interpret(_ frame: InterpreterFrame) -> Result {
        let filter = configuration.labels.flatMap { $0.isEmpty ? nil : Set($0) }
        // Tally per class in a small array searched linearly by integer id (a frame holds few classes),
        // checking the label so inconsistent input still counts by label; no hashing per detection.
        var ids: [Int] = [], labels: [String] = [], counts: [Int] = []
        var byLabel: [String: Int] = [:]
        var total = 0
        for d in frame.detections where d.confidence > configuration.minimumConfidence {
            if let f = filter, !f.contains(d.label) { continue }
            total += 1
            if let i = ids.firstIndex(of: d.classId) {
                if labels[i] == d.label { counts[i] += 1 } else { byLabel[d.label, default: 0] += 1 }
            } else {
                ids.append(d.classId); labels.append(d.label); counts.append(1)
            }
        }
        for i in ids.indices { byLabel[labels[i], default: 0] += counts[i] }
        return Result(counts: byLabel, total: total)
    }

    package func summarize(_ frames: [(frame: InterpreterFrame, result: Result)]) -> VideoResult {
        var totals: [String: Int] = [:], peak: [String: Int] = [:], present: [String: Int] = [:]
        for f in frames {
            for (label, n) in f.result.counts {
                totals[label, default: 0] += n
                peak[label] = max(peak[label] ?? 0, n)
                present[label, default: 0] += 1
            }
        }
        return VideoResult(totals: totals, peak: peak, framesWithLabel: present, frameCount: frames.count,
                           frames: frames.map { .init(frame: $0.frame.frameIndex, time: $0.frame.time, result: $0.result) },
                           crossings: crossings(frames.map(\.frame)))
    }

    /// The line crossings of tracked frames, in order (`nil` when no frame carries track ids). Only the
    /// detections the counter counts (threshold, labels) can cross.
    package func crossings(_ frames: [InterpreterFrame]) -> LineCrossings.Summary? {
        guard frames.contains(where: { $0.trackIds != nil }) else { return nil }
        var counter = configuration.crossingCounter()
        var all: [LineCrossings.Crossing] = []
        for f in frames {
            all += counter.update(trackedObjects(f), width: f.width, height: f.height, time: f.time).crossings
        }
        var summary = counter.current
        summary.crossings = all
        return summary
    }

    /// The frame's counted detections that carry a track id, as the crossing counter takes them.
    package func trackedObjects(_ frame: InterpreterFrame) -> [LineCrossings.Object] {
        guard let ids = frame.trackIds else { return [] }
        return zip(frame.detections, ids).compactMap { d, id in
            configuration.counts(label: d.label, confidence: d.confidence)
                ? LineCrossings.Object(trackId: id, label: d.label, box: d.box) : nil
        }
    }
}

/// Returns the detections unchanged (plus normalised boxes), so any model's output can be piped on.
package struct PassthroughInterpreter: DetectionInterpreter {
    /// No options; accepts any JSON object.
    package struct Configuration: Sendable, Codable, Equatable {
        package init() {}
    }

    /// The frame's detections (shared, not copied) and each box normalised (top-left origin), same order.
    package struct Result: Sendable, Encodable, Equatable {
        package var detections: [Detection]
        package var normalizedBoxes: [Rect]
    }

    package let name = "passthrough"
    package init(configuration: Configuration = .init()) {}

    package func interpret(_ frame: InterpreterFrame) -> Result {
        Result(detections: frame.detections, normalizedBoxes: frame.detections.map {
            VisionCoordinates.normalized($0.box, width: frame.width, height: frame.height)
        })
    }
}
