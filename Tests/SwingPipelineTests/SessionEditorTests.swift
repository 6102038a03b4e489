import Foundation
import SwingBiomech
import SwingCore
@testable import SwingPipeline
import SwingTestSupport
import Testing

/// `SessionEditor`'s rules, in-process and without a store: the contacts a session shows are its heard
/// contacts with the player's edits applied in order, and every edit either names a contact or is refused.
/// Random sessions of heard contacts and random edit lists, so the rules hold for any session, not one.
@Suite struct SessionEditorTests {
    /// Heard contacts at least 0.3 s apart (more than twice the match tolerance), as the detector gives them.
    static func heard(_ rng: inout some RandomNumberGenerator, count: Int) -> [ContactEvent] {
        var t = Double.random(in: 0...2, using: &rng)
        return (0..<count).map { _ in
            defer { t += Double.random(in: 0.3...3, using: &rng) }
            return ContactEvent(time: t, confidence: Double.random(in: 0.2...1, using: &rng))
        }
    }

    @Test func noEditsShowTheHeardContactsInTimeOrder() throws {
        var rng = SplitMix64(seed: 1)
        for _ in 0..<200 {
            let heard = Self.heard(&rng, count: Int.random(in: 0...30, using: &rng))
            let (kept, removed) = try SessionEditor.contacts(heard: heard.shuffled(using: &rng), edits: [])
            #expect(kept.map(\.time) == heard.map(\.time))
            #expect(removed.isEmpty)
        }
    }

    @Test func removingThenRestoringAHeardContactGivesTheSessionBack() throws {
        var rng = SplitMix64(seed: 2)
        for _ in 0..<200 {
            let heard = Self.heard(&rng, count: Int.random(in: 1...30, using: &rng))
            let target = heard[Int.random(in: 0..<heard.count, using: &rng)]
            // The player taps near the contact, not on it: anything within the tolerance names it.
            let tap = target.time + Double.random(in: -0.09...0.09, using: &rng)
            let removedOnce = try SessionEditor.contacts(heard: heard, edits: [ContactEdit(action: .remove, time: tap)])
            #expect(removedOnce.contacts.count == heard.count - 1)
            #expect(!removedOnce.contacts.contains { $0.time == target.time })
            #expect(removedOnce.removed.map(\.time) == [target.time])
            #expect(removedOnce.removed.first?.kind == .removed)

            let restored = try SessionEditor.contacts(heard: heard, edits: [ContactEdit(action: .remove, time: tap),
                                                                         ContactEdit(action: .restore, time: target.time)])
            #expect(restored.contacts.map(\.time) == heard.map(\.time))
            #expect(restored.removed.isEmpty)
            // A restored contact is the player's word: the swing check no longer applies to it.
            #expect(restored.contacts.first { $0.time == target.time }?.confirmed == true)
        }
    }

    @Test func anAddedContactIsAShotAndRemovingItLeavesNoTrace() throws {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<200 {
            let heard = Self.heard(&rng, count: Int.random(in: 0...20, using: &rng))
            let end = (heard.last?.time ?? 0) + 5
            // A time away from every heard contact.
            var time = Double.random(in: 0...end, using: &rng)
            while heard.contains(where: { abs($0.time - time) <= SessionEditor.matchTolerance }) { time = Double.random(in: 0...end, using: &rng) }

            let added = try SessionEditor.contacts(heard: heard, edits: [ContactEdit(action: .add, time: time)])
            #expect(added.contacts.count == heard.count + 1)
            #expect(added.contacts.map(\.time) == added.contacts.map(\.time).sorted())
            let mine = try #require(added.contacts.first { $0.time == time })
            #expect(mine.origin == .added && mine.confirmed)

            let gone = try SessionEditor.contacts(heard: heard, edits: [ContactEdit(action: .add, time: time),
                                                                     ContactEdit(action: .remove, time: time)])
            #expect(gone.contacts.map(\.time) == heard.map(\.time))
            #expect(gone.removed.isEmpty, "an added contact that is removed is not listed as turned down")
        }
    }

    @Test func editsApplyInOrderAndConserveContacts() throws {
        var rng = SplitMix64(seed: 4)
        for _ in 0..<300 {
            let heard = Self.heard(&rng, count: Int.random(in: 1...25, using: &rng))
            var edits: [ContactEdit] = []
            var removedHeard = Set<Double>()
            for _ in 0..<Int.random(in: 1...12, using: &rng) {
                let c = heard[Int.random(in: 0..<heard.count, using: &rng)]
                let action: ContactEdit.Action = removedHeard.contains(c.time) ? .restore : .remove
                edits.append(ContactEdit(action: action, time: c.time))
                if action == .remove { removedHeard.insert(c.time) } else { removedHeard.remove(c.time) }
            }
            let (kept, removed) = try SessionEditor.contacts(heard: heard, edits: edits)
            #expect(kept.count + removed.count == heard.count)
            #expect(Set(removed.map(\.time)) == removedHeard)
            #expect(Set(kept.map(\.time)).isDisjoint(with: removedHeard))
        }
    }

    @Test func anEditThatNamesNoContactIsRefusedInOneSentence() {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<100 {
            let heard = Self.heard(&rng, count: Int.random(in: 0...10, using: &rng))
            let far = (heard.last?.time ?? 0) + Double.random(in: 0.2...100, using: &rng)
            for action in [ContactEdit.Action.remove, .restore] {
                #expect {
                    try SessionEditor.contacts(heard: heard, edits: [ContactEdit(action: action, time: far)])
                } throws: { error in
                    guard let e = error as? PipelineError, e.kind == .invalidEdit else { return false }
                    return e.message.hasPrefix("There is no contact within 0.10 s of") && e.message.hasSuffix(" s.")
                }
            }
        }
    }

    @Test func theNearestContactWithinTheToleranceIsTheOneMeantTheEarlierOnATie() {
        let contacts = [1.0, 1.15, 1.3, 5.0].map { ContactEvent(time: $0, confidence: 1) }
        #expect(SessionEditor.nearest(1.04, in: contacts) == 0)
        #expect(SessionEditor.nearest(1.11, in: contacts) == 1)
        #expect(SessionEditor.nearest(1.075, in: contacts) == 0, "a tie goes to the earlier contact")
        #expect(SessionEditor.nearest(5.1, in: contacts) == 3)
        #expect(SessionEditor.nearest(5.2, in: contacts) == nil)
        #expect(SessionEditor.nearest(-3, in: contacts) == nil)
        #expect(SessionEditor.nearest(1, in: []) == nil)
    }

    @Test func aSessionHoldsAtMostOneContactPerQuarterSecond() {
        #expect(SessionEditor.contactLimit(duration: 0) == 1)
        #expect(SessionEditor.contactLimit(duration: 1) == 5)
        #expect(SessionEditor.contactLimit(duration: 60) == 241)
        #expect(SessionEditor.contactLimit(duration: -4) == 1)
        for d in stride(from: 0.0, through: 600, by: 7.3) {
            #expect(Double(SessionEditor.contactLimit(duration: d) - 1) * SessionEditor.minimumSpacing <= d)
        }
    }

    @Test func timesInSentencesAreShortEvenWhenAbsurd() {
        #expect(SessionEditor.format(3.14159) == "3.14")
        #expect(SessionEditor.format(-0.5) == "-0.50")
        #expect(SessionEditor.format(1e308) == "1e+308")
        #expect(SessionEditor.format(-2.5e9).count < 12)
    }

    @Test func mergedTracksKeepTheStoredSamplesAndTimeOrder() throws {
        func sample(_ t: Double, x: Double) -> PoseSample {
            PoseSample(time: t, world: Array(repeating: Vec3(x: x, y: 0, z: 1), count: BodyLandmark.count),
                       visibility: Array(repeating: 1, count: BodyLandmark.count))
        }
        let stored = try PoseTrack(samples: [sample(1, x: 0), sample(2, x: 0), sample(3, x: 0)])
        let added = (samples: [sample(0.5, x: 1), sample(2, x: 1), sample(3.5, x: 1)], videoFrames: [15, 60, 105])
        let (track, frames) = try SessionEditor.merge(track: stored, videoFrames: [30, 60, 90], with: added)
        #expect(track.samples.map(\.time) == [0.5, 1, 2, 3, 3.5])
        #expect(frames == [15, 30, 60, 90, 105])
        #expect(track.samples.first { $0.time == 2 }?.world[0].x == 0, "the stored sample wins over the new one")
        // A stored track without its frame numbers keeps its samples, with -1 for the unknown frames.
        let (_, unknown) = try SessionEditor.merge(track: stored, videoFrames: [], with: added)
        #expect(unknown == [15, -1, -1, -1, 105])
    }
}
