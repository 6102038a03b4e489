import SwingAudio
import SwingBiomech
import SwingCore

/// The words the web pages share with the program (`GET /api/vocabulary`), so no page keeps its own copy of
/// a list the program owns: the analysis stages a job reports, the job states and which are final, the
/// stroke types, the sensitivity levels with the thresholds each sets, and the body measures.
public struct Vocabulary: Codable, Sendable, Equatable {
    /// A stroke type as the pages name it.
    public struct Stroke: Codable, Sendable, Equatable {
        /// ``StrokeType``'s raw value, as shots carry it.
        public var id: String
        /// "Forehand".
        public var name: String
        /// "Forehands", for counts and filters.
        public var plural: String
    }

    /// A sensitivity level as the pages offer it.
    public struct Level: Codable, Sendable, Equatable {
        /// ``ContactSensitivity``'s raw value, as requests send it.
        public var id: String
        /// The button's words ("Fewer hits").
        public var label: String
        /// When a player would choose it.
        public var hint: String
        /// The detector's thresholds at this level (the expert fields' placeholders).
        public var peakThresholdFactor: Double
        public var minRelativeAmplitude: Double
    }

    /// A body measure as the pages show it (``BodyMeasure``).
    public struct Measure: Codable, Sendable, Equatable {
        /// ``BodyMeasure``'s raw value: the key in a shot's `angles`, `angleRange` and the statistics.
        public var id: String
        public var label: String
        public var shortLabel: String
        /// `"deg"` or `"shoulder widths"`.
        public var unit: String
        public var definition: String
        /// For the angle at one joint, the three joints it spans per hand (`right`, `left`) as rows of the
        /// shot view's 17 joints, the vertex in the middle: where the shot view draws it.
        public var joints: [String: [Int]]?
    }

    /// The stages a session analysis job reports, in order: `JOB.stage` n is `stages[n - 1]`.
    public var stages: [String]
    /// Every job state, and those after which a job does not change.
    public var jobStates: [String]
    public var finalStates: [String]
    /// The stroke types, in the order the pages list them.
    public var strokes: [Stroke]
    /// The sensitivity levels, from fewer hits to more.
    public var sensitivity: [Level]
    /// The level a new session is analysed at.
    public var defaultSensitivity: String
    /// The body measures, in the order the pages list them.
    public var bodyMeasures: [Measure]

    /// The program's vocabulary.
    public init() {
        stages = JobRunner.stages.map(\.title)
        jobStates = JobState.allCases.map(\.rawValue)
        finalStates = JobState.allCases.filter(\.isFinal).map(\.rawValue)
        strokes = StrokeType.allCases.map { Stroke(id: $0.rawValue, name: Self.name(of: $0), plural: Self.name(of: $0) + "s") }
        sensitivity = ContactSensitivity.allCases.map { level in
            let p = level.apply(to: .default)
            return Level(id: level.rawValue, label: Self.label(of: level), hint: Self.hint(of: level),
                         peakThresholdFactor: p.peakThresholdFactor, minRelativeAmplitude: p.minRelativeAmplitude)
        }
        defaultSensitivity = ContactSensitivity.normal.rawValue
        bodyMeasures = BodyMeasure.allCases.map { m in
            let rows = Hand.allCases.compactMap { hand -> (String, [Int])? in
                guard let joints = m.joints(for: hand) else { return nil }
                let rows = joints.compactMap { SkeletonJoints.landmarks.firstIndex(of: $0) }
                return rows.count == joints.count ? (hand.rawValue, rows) : nil
            }
            return Measure(id: m.rawValue, label: m.label, shortLabel: m.shortLabel, unit: m.unit, definition: m.definition,
                           joints: rows.isEmpty ? nil : Dictionary(uniqueKeysWithValues: rows))
        }
    }

    static func name(of stroke: StrokeType) -> String {
        switch stroke {
        case .forehand: "Forehand"
        case .backhand: "Backhand"
        case .serve: "Serve"
        }
    }

    static func label(of level: ContactSensitivity) -> String {
        switch level {
        case .fewer: "Fewer hits"
        case .normal: "Normal"
        case .more: "More hits"
        }
    }

    static func hint(of level: ContactSensitivity) -> String {
        switch level {
        case .fewer: "noisy court"
        case .normal: "most recordings"
        case .more: "quiet or distant"
        }
    }
}
