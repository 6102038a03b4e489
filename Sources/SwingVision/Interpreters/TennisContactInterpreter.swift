import SwingCore

/// The racket–ball contact rule of docs/interpreters.md, per frame, plus merging of consecutive
/// contact frames into events over a video.
///
/// Per frame: take the most confident racket (label "tennis racket", confidence > 0.5) and the most
/// confident ball ("sports ball" or "tennis ball", confidence > 0.4). Boxes are normalised by the image
/// size (top-left origin). Contact when IoU > 0.3 (rule `iou`, confidence min(racket, ball)); otherwise
/// when the ball centre lies inside the racket box expanded by 0.03 on every side, **edges included**
/// (rule `proximity`, confidence min(racket, ball) × 0.9). Labels compare case-insensitively.
///
/// Floating-point boundaries: an IoU that equals the threshold in exact arithmetic can come out a hair
/// above it (0.30000000000000004) depending on the order of operations, so IoU must exceed the threshold
/// by more than ``Configuration/boundaryTolerance`` and the centre may sit up to that tolerance outside
/// the expanded box. Confidences are compared exactly as given (`> 0.5` rejects exactly 0.5).
package struct TennisContactInterpreter: DetectionInterpreter {
    /// Thresholds (all keys optional in JSON; defaults in docs/interpreters.md).
    package struct Configuration: Sendable, Codable, Equatable {
        /// A racket must be more confident than this. Default 0.5.
        package var racketConfidence: Double = 0.5
        /// A ball must be more confident than this. Default 0.4.
        package var ballConfidence: Double = 0.4
        /// Racket–ball IoU above this is an `iou` contact. Default 0.3.
        package var iouThreshold: Double = 0.3
        /// Normalised margin added to every side of the racket box for the `proximity` rule. Default 0.03.
        package var proximityMargin: Double = 0.03
        /// Confidence factor for `proximity` contacts. Default 0.9.
        package var proximityConfidenceFactor: Double = 0.9
        /// Tolerance for the IoU and edge comparisons (see the type's documentation). Default 1e-9.
        package var boundaryTolerance: Double = 1e-9
        /// Racket labels (lower-case). Default ["tennis racket"].
        package var racketLabels: [String] = ["tennis racket"]
        /// Ball labels (lower-case). Default ["sports ball", "tennis ball"].
        package var ballLabels: [String] = ["sports ball", "tennis ball"]

        package init() {}
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let d = Configuration()
            racketConfidence = try c.decodeIfPresent(Double.self, forKey: .racketConfidence) ?? d.racketConfidence
            ballConfidence = try c.decodeIfPresent(Double.self, forKey: .ballConfidence) ?? d.ballConfidence
            iouThreshold = try c.decodeIfPresent(Double.self, forKey: .iouThreshold) ?? d.iouThreshold
            proximityMargin = try c.decodeIfPresent(Double.self, forKey: .proximityMargin) ?? d.proximityMargin
            proximityConfidenceFactor = try c.decodeIfPresent(Double.self, forKey: .proximityConfidenceFactor)
                ?? d.proximityConfidenceFactor
            boundaryTolerance = try c.decodeIfPresent(Double.self, forKey: .boundaryTolerance) ?? d.boundaryTolerance
            racketLabels = try c.decodeIfPresent([String].self, forKey: .racketLabels) ?? d.racketLabels
            ballLabels = try c.decodeIfPresent([String].self, forKey: .ballLabels) ?? d.ballLabels
        }
    }

    /// Which rule fired.
    package enum Rule: String, Sendable, Codable { case iou, proximity }

    /// A contact in one frame.
    package struct Contact: Sendable, Codable, Equatable {
        package var frame: Int
        package var time: Double
        /// Ball centre, normalised, top-left origin.
        package var position: Point2
        package var confidence: Double
        package var rule: Rule
        /// Racket–ball IoU (normalised boxes).
        package var iou: Double
    }

    /// A contact event: consecutive contact frames merged; reported at its most confident frame.
    package struct Event: Sendable, Codable, Equatable {
        package var frame: Int
        package var time: Double
        package var position: Point2
        package var confidence: Double
        package var rule: Rule
        package var startFrame: Int
        package var endFrame: Int
        package var startTime: Double
        package var endTime: Double
        /// Number of contact frames merged.
        package var frameCount: Int
    }

    /// Per-frame result: the contact, if any.
    package struct Result: Sendable, Codable, Equatable {
        package var contact: Contact?
        /// Why there is no contact ("no racket", "no ball", "apart"), `nil` on contact.
        package var reason: String?
    }

    /// Video result: merged events (`contacts`) and every contact frame before merging.
    package struct VideoResult: Sendable, Encodable, Equatable {
        package var contacts: [Event]
        package var frameContacts: [Contact]
    }

    package let name = "tennis-contact"
    package var configuration: Configuration

    package init(configuration: Configuration = .init()) { self.configuration = configuration }

    package func interpret(_ frame: InterpreterFrame) -> Result {
        let cfg = configuration
        var racket: Detection?
        var ball: Detection?
        for d in frame.detections {
            // Cheap reject first: most detections are below both thresholds or of other classes.
            guard d.confidence > min(cfg.racketConfidence, cfg.ballConfidence) else { continue }
            if d.confidence > cfg.racketConfidence, d.confidence > (racket?.confidence ?? -1),
               cfg.racketLabels.contains(where: { Self.sameLabel(d.label, $0) }) {
                racket = d
            } else if d.confidence > cfg.ballConfidence, d.confidence > (ball?.confidence ?? -1),
                      cfg.ballLabels.contains(where: { Self.sameLabel(d.label, $0) }) {
                ball = d
            }
        }
        guard let r = racket else { return Result(contact: nil, reason: "no racket") }
        guard let b = ball else { return Result(contact: nil, reason: "no ball") }
        let rBox = VisionCoordinates.normalized(r.box, width: frame.width, height: frame.height)
        let bBox = VisionCoordinates.normalized(b.box, width: frame.width, height: frame.height)
        let iou = rBox.iou(bBox)
        let centre = bBox.center
        let conf = min(r.confidence, b.confidence)
        if iou > cfg.iouThreshold + cfg.boundaryTolerance {
            return Result(contact: Contact(frame: frame.frameIndex, time: frame.time, position: centre,
                                           confidence: conf, rule: .iou, iou: iou), reason: nil)
        }
        if rBox.expanded(by: cfg.proximityMargin + cfg.boundaryTolerance).contains(centre) {
            return Result(contact: Contact(frame: frame.frameIndex, time: frame.time, position: centre,
                                           confidence: conf * cfg.proximityConfidenceFactor, rule: .proximity,
                                           iou: iou), reason: nil)
        }
        return Result(contact: nil, reason: "apart")
    }

    /// Case-insensitive label comparison without allocating (ASCII letters fold; other bytes must match).
    static func sameLabel(_ a: String, _ b: String) -> Bool {
        var ib = b.utf8.makeIterator()
        for x in a.utf8 {
            guard let y = ib.next() else { return false }
            if x != y {
                let fx = (0x41...0x5A).contains(x) ? x | 0x20 : x, fy = (0x41...0x5A).contains(y) ? y | 0x20 : y
                if fx != fy { return false }
            }
        }
        return ib.next() == nil
    }

    /// Merges contacts in consecutive interpreted frames (no contact-free frame between them) into one
    /// event, reported at its most confident frame (earliest on ties).
    package func summarize(_ frames: [(frame: InterpreterFrame, result: Result)]) -> VideoResult {
        var events: [Event] = []
        var all: [Contact] = []
        var open = false
        for f in frames {
            guard let c = f.result.contact else { open = false; continue }
            all.append(c)
            if open, var e = events.popLast() {
                e.endFrame = c.frame; e.endTime = c.time; e.frameCount += 1
                if c.confidence > e.confidence {
                    e.frame = c.frame; e.time = c.time; e.position = c.position
                    e.confidence = c.confidence; e.rule = c.rule
                }
                events.append(e)
            } else {
                events.append(Event(frame: c.frame, time: c.time, position: c.position, confidence: c.confidence,
                                    rule: c.rule, startFrame: c.frame, endFrame: c.frame, startTime: c.time,
                                    endTime: c.time, frameCount: 1))
            }
            open = true
        }
        return VideoResult(contacts: events, frameContacts: all)
    }
}
