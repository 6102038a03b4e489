import Foundation
import SwingCore

/// The body's angles and proportions in one posed frame: the one table of body measures (docs/analysis.md,
/// "Body measures", prints it). A new measure is a case here with its label, unit and definition, and its
/// computation in ``BodyAngles/init(world:frame:hand:)``; the session document, the CSV, the terminal, the
/// statistics and the pages then list it without further change.
///
/// Every measure is taken in the body frame of ``BodyFrame`` (up **u** = world up, forward **f**, hitting
/// side **h**), so a left-hander's mirrored stroke gives the same numbers as a right-hander's.
package enum BodyMeasure: String, CaseIterable, Codable, Sendable, CodingKeyRepresentable {
    /// 180° − the angle at the hitting arm's elbow between the upper arm and the forearm: 0° is a straight arm.
    case elbowFlexion
    /// 180° − the angle at the knee between the thigh and the shin, on the hitting side: 0° is a straight leg.
    case kneeFlexionHittingSide
    /// The same for the other leg.
    case kneeFlexionOtherSide
    /// How far the shoulders' line is turned past the hips' line, seen from above (in the plane
    /// perpendicular to **u**): positive when the hitting-side shoulder is turned back (the coil of a
    /// forehand's preparation), negative when it is turned forward past the hips.
    case shoulderHipSeparation
    /// The trunk (pelvis → midpoint of the shoulders) from vertical in the plane of **f** and **u**:
    /// positive leaning forward.
    case trunkLeanForward
    /// The trunk from vertical in the plane of **h** and **u**: positive leaning toward the hitting side.
    case trunkLeanSideways
    /// The ankles' distance apart seen from above, divided by the shoulders' distance apart: 1 is feet
    /// under the shoulders.
    case stanceWidth

    /// What a player reads (the terminal's and the pages' label).
    package var label: String {
        switch self {
        case .elbowFlexion: "Elbow bend"
        case .kneeFlexionHittingSide: "Knee bend, racket side"
        case .kneeFlexionOtherSide: "Knee bend, other side"
        case .shoulderHipSeparation: "Shoulder–hip separation"
        case .trunkLeanForward: "Trunk lean forward"
        case .trunkLeanSideways: "Trunk lean sideways"
        case .stanceWidth: "Stance width"
        }
    }

    /// A short label for the terminal's compact line.
    package var shortLabel: String {
        switch self {
        case .elbowFlexion: "elbow"
        case .kneeFlexionHittingSide: "knee"
        case .kneeFlexionOtherSide: "other knee"
        case .shoulderHipSeparation: "separation"
        case .trunkLeanForward: "lean fwd"
        case .trunkLeanSideways: "lean side"
        case .stanceWidth: "stance"
        }
    }

    /// The unit: `"deg"` for the angles, `"shoulder widths"` for the stance.
    package var unit: String { self == .stanceWidth ? "shoulder widths" : "deg" }

    /// Whether the measure is an angle in degrees.
    package var isAngle: Bool { self != .stanceWidth }

    /// One sentence defining the measure (the docs' table and the pages' tooltips).
    package var definition: String {
        switch self {
        case .elbowFlexion:
            "180° minus the angle at the hitting arm's elbow between upper arm and forearm; 0° is a straight arm."
        case .kneeFlexionHittingSide:
            "180° minus the angle at the racket-side knee between thigh and shin; 0° is a straight leg."
        case .kneeFlexionOtherSide:
            "180° minus the angle at the other knee between thigh and shin; 0° is a straight leg."
        case .shoulderHipSeparation:
            "The shoulders' line turned past the hips' line, seen from above; positive when the racket-side shoulder is turned back."
        case .trunkLeanForward:
            "The trunk (pelvis to the shoulders' midpoint) from vertical, front to back; positive leaning forward."
        case .trunkLeanSideways:
            "The trunk from vertical, side to side; positive leaning toward the racket side."
        case .stanceWidth:
            "The ankles' distance apart seen from above, in shoulder widths; 1 is feet under the shoulders."
        }
    }

    /// The three joints a joint angle spans for a `hand`-handed player, its vertex in the middle (the elbow
    /// of the hitting arm, a knee); `nil` for the measures that are not the angle at one joint. The pages draw
    /// the angle there.
    package func joints(for hand: Hand) -> [BodyLandmark]? {
        let right = hand == .right
        switch self {
        case .elbowFlexion: return right ? [.rightShoulder, .rightElbow, .rightWrist] : [.leftShoulder, .leftElbow, .leftWrist]
        case .kneeFlexionHittingSide: return right ? [.rightHip, .rightKnee, .rightAnkle] : [.leftHip, .leftKnee, .leftAnkle]
        case .kneeFlexionOtherSide: return right ? [.leftHip, .leftKnee, .leftAnkle] : [.rightHip, .rightKnee, .rightAnkle]
        case .shoulderHipSeparation, .trunkLeanForward, .trunkLeanSideways, .stanceWidth: return nil
        }
    }

    /// `value` as a player reads it: whole degrees (`24°`), the stance with 2 decimals (`1.35×`).
    package func formatted(_ value: Double) -> String {
        isAngle ? String(format: "%.0f°", value) : String(format: "%.2f×", value)
    }
}

/// The body measures of one frame (or of one shot at its contact instant), keyed by measure; a measure
/// whose joints coincide is left out. JSON: `{"elbowFlexion": 24.1, "stanceWidth": 1.35, …}`.
package struct BodyAngles: Codable, Sendable, Equatable {
    package var values: [BodyMeasure: Double]

    package init(_ values: [BodyMeasure: Double]) { self.values = values }

    /// The value of `measure`, if it was taken.
    package subscript(_ measure: BodyMeasure) -> Double? { values[measure] }

    /// The measures of the 33 world landmarks `world` in `frame` for a `hand`-handed player
    /// (``BodyMeasure`` defines each).
    package init(world: [Vec3], frame: BodyFrame, hand: Hand) {
        func p(_ l: BodyLandmark) -> Vec3 { world[l.index] }
        let right = hand == .right
        let shoulder = right ? p(.rightShoulder) : p(.leftShoulder), otherShoulder = right ? p(.leftShoulder) : p(.rightShoulder)
        let ankle = right ? p(.rightAnkle) : p(.leftAnkle), otherAnkle = right ? p(.leftAnkle) : p(.rightAnkle)
        var v: [BodyMeasure: Double] = [:]
        for m in BodyMeasure.allCases {
            if let j = m.joints(for: hand) { v[m] = Self.flexion(p(j[0]), p(j[1]), p(j[2])) }
        }
        let across = shoulder - otherShoulder
        let f = across.dot(frame.forward), h = across.dot(frame.hitting)
        if f != 0 || h != 0 { v[.shoulderHipSeparation] = Self.degrees(atan2(-f, h)) }
        let trunk = (shoulder + otherShoulder) * 0.5 - frame.pelvis
        let up = trunk.dot(frame.up)
        if trunk.length > 1e-9 {
            v[.trunkLeanForward] = Self.degrees(atan2(trunk.dot(frame.forward), up))
            v[.trunkLeanSideways] = Self.degrees(atan2(trunk.dot(frame.hitting), up))
        }
        let feet = ankle - otherAnkle
        let apart = (feet - frame.up * feet.dot(frame.up)).length, width = across.length
        if width > 1e-9 { v[.stanceWidth] = apart / width }
        values = v
    }

    /// 180° − the angle at `b` between `a` and `c`; `nil` when a segment has no length.
    static func flexion(_ a: Vec3, _ b: Vec3, _ c: Vec3) -> Double? {
        let u = a - b, w = c - b
        guard u.length > 1e-9, w.length > 1e-9 else { return nil }
        return 180 - degrees(atan2(u.cross(w).length, u.dot(w)))
    }

    static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }

    /// The measures between `a` (weight 0) and `b` (weight 1), each interpolated linearly (the separation
    /// the short way round the circle); a measure missing on either side is left out.
    package static func lerp(_ a: BodyAngles, _ b: BodyAngles, _ t: Double) -> BodyAngles {
        var out: [BodyMeasure: Double] = [:]
        for (m, x) in a.values {
            guard let y = b.values[m] else { continue }
            var d = y - x
            if m == .shoulderHipSeparation { d = remainder(d, 360) }
            var value = x + d * t
            if m == .shoulderHipSeparation { value = remainder(value, 360) }
            out[m] = value
        }
        return BodyAngles(out)
    }

    /// Reads the measures it knows and skips any other key (a document from a later version).
    package init(from decoder: any Decoder) throws {
        let raw = try [String: Double](from: decoder)
        values = Dictionary(uniqueKeysWithValues: raw.compactMap { k, v in BodyMeasure(rawValue: k).map { ($0, v) } })
    }

    package func encode(to encoder: any Encoder) throws { try values.encode(to: encoder) }
}

/// The smallest and largest value of each body measure over a shot's swing window (from the preparation to
/// the follow-through). JSON: `{"elbowFlexion": [12.0, 95.3], …}`.
package struct BodyAngleRange: Codable, Sendable, Equatable {
    package var values: [BodyMeasure: [Double]]

    /// The range of each measure over `frames`; `nil` when no frame has any measure.
    package init?(_ frames: [BodyAngles]) {
        var v: [BodyMeasure: [Double]] = [:]
        for frame in frames {
            for (m, x) in frame.values {
                if let r = v[m] { v[m] = [min(r[0], x), max(r[1], x)] } else { v[m] = [x, x] }
            }
        }
        guard !v.isEmpty else { return nil }
        values = v
    }

    /// The smallest and largest value of `measure`, if it was taken.
    package subscript(_ measure: BodyMeasure) -> ClosedRange<Double>? {
        guard let r = values[measure], r.count == 2, r[0] <= r[1] else { return nil }
        return r[0]...r[1]
    }

    /// Reads the measures it knows and skips any other key (a document from a later version).
    package init(from decoder: any Decoder) throws {
        let raw = try [String: [Double]](from: decoder)
        values = Dictionary(uniqueKeysWithValues: raw.compactMap { k, v in BodyMeasure(rawValue: k).map { ($0, v) } })
    }

    package func encode(to encoder: any Encoder) throws { try values.encode(to: encoder) }
}

/// Mean and population standard deviation (ddof 0) of one body measure over a session's shots, in the
/// measure's unit.
package struct MeasureSpread: Codable, Sendable, Equatable {
    package var mean: Double
    package var sd: Double

    package init(mean: Double, sd: Double) { self.mean = mean; self.sd = sd }

    /// The spread of `values`, or `nil` for none.
    package init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let n = Double(values.count)
        mean = values.reduce(0, +) / n
        let m = mean
        sd = (values.reduce(0) { $0 + ($1 - m) * ($1 - m) } / n).squareRoot()
    }
}
