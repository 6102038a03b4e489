import SwingAudio
import SwingBiomech
import SwingCore

/// The words the web pages share with the program (`GET /api/vocabulary`), so no page keeps its own copy of
/// a list the program owns: the analysis stages a job reports, the job states and which are final, the
/// stroke types, the sensitivity levels with the thresholds each sets, the body measures, and why a contact
/// is not a shot.
package struct Vocabulary: Codable, Sendable, Equatable {
    /// A stroke type as the pages name it.
    package struct Stroke: Codable, Sendable, Equatable {
        /// ``StrokeType``'s raw value, as shots carry it.
        package var id: String
        /// "Forehand".
        package var name: String
        /// "Forehands", for counts and filters.
        package var plural: String
    }

    /// A sensitivity level as the pages offer it.
    package struct Level: Codable, Sendable, Equatable {
        /// ``ContactSensitivity``'s raw value, as requests send it.
        package var id: String
        /// The button's words ("Fewer hits").
        package var label: String
        /// When a player would choose it.
        package var hint: String
        /// The detector's thresholds at this level (the expert fields' placeholders).
        package var peakThresholdFactor: Double
        package var minRelativeAmplitude: Double
    }

    /// Why a contact is not a shot, as the results page marks it (``RejectionKind``).
    package struct Rejection: Codable, Sendable, Equatable {
        /// ``RejectionKind``'s raw value, as a rejected contact's `kind` carries it.
        package var id: String
        /// The mark's words ("Not counted: no swing"); the contact's own `reason` says more.
        package var label: String
    }

    /// A body measure as the pages show it (``BodyMeasure``).
    package struct Measure: Codable, Sendable, Equatable {
        /// ``BodyMeasure``'s raw value: the key in a shot's `angles`, `angleRange` and the statistics.
        package var id: String
        package var label: String
        package var shortLabel: String
        /// `"deg"` or `"shoulder widths"`.
        package var unit: String
        package var definition: String
        /// For the angle at one joint, the three joints it spans per hand (`right`, `left`) as rows of the
        /// shot view's 17 joints, the vertex in the middle: where the shot view draws it.
        package var joints: [String: [Int]]?
    }

    /// The stages a session analysis job reports, in order: `JOB.stage` n is `stages[n - 1]`.
    package var stages: [String]
    /// Every job state, and those after which a job does not change.
    package var jobStates: [String]
    package var finalStates: [String]
    /// The stroke types, in the order the pages list them.
    package var strokes: [Stroke]
    /// The sensitivity levels, from fewer hits to more.
    package var sensitivity: [Level]
    /// The level a new session is analysed at.
    package var defaultSensitivity: String
    /// The body measures, in the order the pages list them.
    package var bodyMeasures: [Measure]
    /// Every reason a contact is not a shot.
    package var rejections: [Rejection]

    /// The program's vocabulary.
    package init() {
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
        rejections = RejectionKind.allCases.map { Rejection(id: $0.rawValue, label: Self.label(of: $0)) }
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

    static func label(of kind: RejectionKind) -> String {
        switch kind {
        case .noSwing: "Not counted: no swing"
        case .unmeasured: "Not counted: you could not be seen"
        case .opponent: "Not counted: probably your opponent"
        case .implausible: "Not measured: not a pose a body takes"
        case .tooSoon: "Not counted: too soon after a hit"
        case .removed: "Taken out by you"
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
