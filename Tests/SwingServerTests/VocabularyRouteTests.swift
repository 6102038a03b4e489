import Foundation
import HummingbirdTesting
import SwingBiomech
import SwingCore
import SwingPipeline
@testable import SwingServer
import Testing

/// `GET /api/vocabulary`: the pages' one source for the words the program owns, decoded into its real type.
@Suite struct VocabularyRouteTests {
    @Test func thePagesGetTheProgramsOwnWords() async throws {
        try await TestServer().run { client in
            let r = try await client.execute(uri: "/api/vocabulary", method: .get, headers: [:], body: nil)
            #expect(r.status == .ok)
            let words = try JSONDecoder().decode(Vocabulary.self, from: Data(buffer: r.body))
            // A job's stage n is the page's stages[n - 1], for every stage a job reports.
            #expect(words.stages.count == JobView.stages.count)
            for stage in JobView.stages { #expect(words.stages[JobView.number(of: stage) - 1] == stage.title) }
            // Every state a job can be in, and the final ones the pages stop following at.
            #expect(Set(words.jobStates) == Set(JobState.allCases.map(\.rawValue)))
            #expect(Set(words.finalStates) == Set(JobState.allCases.filter(\.isFinal).map(\.rawValue)))
            // Every stroke a shot can carry, named.
            #expect(words.strokes.map(\.id) == StrokeType.allCases.map(\.rawValue))
            #expect(words.strokes.allSatisfy { !$0.name.isEmpty && $0.plural.hasPrefix($0.name) })
            // Every level a request may send, with the thresholds the detector uses at it: fewer hits is
            // stricter on both, more hits looser, and the default is one of them.
            let levels = Dictionary(uniqueKeysWithValues: words.sensitivity.map { ($0.id, $0) })
            #expect(Set(levels.keys) == Set(ContactSensitivity.allCases.map(\.rawValue)))
            #expect(levels[words.defaultSensitivity] != nil)
            let fewer = try #require(levels["fewer"]), normal = try #require(levels["normal"]), more = try #require(levels["more"])
            #expect(fewer.peakThresholdFactor > normal.peakThresholdFactor && normal.peakThresholdFactor > more.peakThresholdFactor)
            #expect(fewer.minRelativeAmplitude > normal.minRelativeAmplitude && normal.minRelativeAmplitude > more.minRelativeAmplitude)
            // Every body measure a shot carries, labelled, and for a joint angle the shot view's rows of its three
            // joints for each hand: the vertex is the hitting elbow or a knee, mirrored for a left-hander.
            #expect(words.bodyMeasures.map(\.id) == BodyMeasure.allCases.map(\.rawValue))
            #expect(words.bodyMeasures.allSatisfy { !$0.label.isEmpty && !$0.definition.isEmpty })
            let elbow = try #require(words.bodyMeasures.first { $0.id == "elbowFlexion" }?.joints)
            #expect(elbow["right"].map { $0.map { SkeletonJoints.names[$0] } } == ["rightShoulder", "rightElbow", "rightWrist"])
            #expect(elbow["left"].map { $0.map { SkeletonJoints.names[$0] } } == ["leftShoulder", "leftElbow", "leftWrist"])
            let knee = try #require(words.bodyMeasures.first { $0.id == "kneeFlexionOtherSide" }?.joints)
            #expect(knee["right"].map { $0.map { SkeletonJoints.names[$0] } } == ["leftHip", "leftKnee", "leftAnkle"])
            #expect(words.bodyMeasures.first { $0.id == "stanceWidth" }?.joints == nil)
            // Every reason a contact can be turned down, each with its own words.
            #expect(words.rejections.map(\.id) == RejectionKind.allCases.map(\.rawValue))
            #expect(Set(words.rejections.map(\.label)).count == RejectionKind.allCases.count)
        }
    }
}
