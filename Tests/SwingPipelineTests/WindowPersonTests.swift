import Foundation
import SwingBiomech
import SwingCore
import SwingMedia
import SwingPose
import SwingTestSupport
import Testing
@testable import SwingPipeline

/// The pose stage on a video of two real people (``PastedPerson``) standing apart: whom it measures when told
/// where the player is, and what it says when the only people in view are too small to measure.
@Suite struct WindowPersonTests {
    static let source = Result { try PastedPerson.Source(photo: ImageIO.load(TestFiles.package("Tests/SwingPoseTests/Fixtures/basketball1.png").path)) }

    /// A 1.5-s 30-fps video of `frame`.
    static func video(_ frame: ImageBuffer, name: String) throws -> String {
        let path = try TestFiles.processDirectory("window-person").appendingPathComponent(name).path
        let writer = try VideoWriter(path: path, width: frame.width, height: frame.height, fps: 30)
        for _ in 0..<45 { try writer.append(frame) }
        try writer.finish()
        return path
    }

    /// A video of people `heights` px tall standing side by side (hips 660 px apart from x 300) on a generated court.
    static func video(heights: [Double], seed: UInt64, name: String) throws -> String {
        let source = try Self.source.get()
        var frame = PastedPerson.court(width: 1280, height: 720, seed: seed)
        for (k, h) in heights.enumerated() { frame = PastedPerson.paste(source, into: frame, height: h, hips: Point2(x: 300 + 660 * Double(k), y: 420)).frame }
        return try video(frame, name: name)
    }

    static func poser(_ path: String, player: PersonChoice, biomech: BiomechParameters? = nil, minimum: Double = WindowPoser.minimumPersonFraction,
                      spans: [ClosedRange<Double>] = [0.9...1.0], estimators: [PoseEstimator]? = nil) throws -> WindowPoser {
        let estimators = try estimators ?? [PoseEstimator(modelsDirectory: TestFiles.package("Models"))]
        let schedule = PoseSchedule(spans: spans, frameRate: 30, sampling: PoseSampling(), biomech: BiomechParameters(hand: .right))
        var poser = WindowPoser(path: path, targetSize: nil, estimators: estimators, schedule: schedule,
                                timeline: try FrameTimeline(path: path), player: player, chooseBySwing: biomech)
        poser.minimumPerson = minimum
        return poser
    }

    /// Told where the player is, every posed frame is that person, whichever of the two it is and whatever their size.
    @Test(arguments: [(250.0, 380.0), (380, 250)])
    func thePersonAtTheGivenPointIsMeasured(leftHeight: Double, rightHeight: Double) throws {
        let source = try Self.source.get()
        let court = PastedPerson.court(width: 1280, height: 720, seed: 2)
        let left = PastedPerson.paste(source, into: court, height: leftHeight, hips: Point2(x: 300, y: 420))
        let both = PastedPerson.paste(source, into: left.frame, height: rightHeight, hips: Point2(x: 960, y: 420))
        let path = try Self.video(both.frame, name: "two.mp4")
        defer { try? FileManager.default.removeItem(atPath: path) }
        for (target, hips) in [(Point2(x: 300.0 / 1280, y: 420.0 / 720), left.hips), (Point2(x: 960.0 / 1280, y: 420.0 / 720), both.hips)] {
            let out = try Self.poser(path, player: .nearest(target)).run(segments: [0...1.5], progress: nil)
            let poses = out.frames.compactMap(\.pose)
            #expect(poses.count >= out.frames.count - 1 && !poses.isEmpty, "posed \(poses.count) of \(out.frames.count)")
            for p in poses {
                let x = (p.landmarks[23].x + p.landmarks[24].x) / 2
                #expect(abs(x - hips.x) < 60, "told \(target.x): hips posed at x \(x), the person is at \(hips.x)")
            }
        }
    }

    /// A piece's first pose is recorded with whom it could search: with one person in view nobody else (so looking
    /// again there for the hitter poses nothing); with a second person of about the same size beside them, that
    /// person; with a first person too small for the whole frame, the picture whose tiles the search looks in.
    /// Given back, the record is the piece: nothing is decoded or posed again.
    @Test(arguments: [([380.0], true), ([380, 300], false), ([380, 150], true), ([200], false)])
    func aPieceRecordsWhomItCouldSearch(heights: [Double], alone: Bool) throws {
        let path = try Self.video(heights: heights, seed: 3, name: "alone-\(heights.count)-\(Int(heights[0])).mp4")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var poser = try Self.poser(path, player: .largest, biomech: BiomechParameters(hand: .right))
        poser.recordFirstPoses = true
        let out = try poser.run(segments: [0...1.5], progress: nil)
        #expect(out.frames.contains { $0.pose != nil })
        let first = try #require(out.firstPoses[0...1.5])
        #expect(first.alone == alone, "\(heights): alone \(first.alone)")
        #expect((first.picture != nil) == (heights[0] < 230), "\(heights): the picture is kept only for a small first person")
        #expect(first.frames.map(\.time) == out.frames.map(\.time))
        // Given back (no loud contact to search near here), nothing is decoded or posed again.
        poser.reuse = out.firstPoses
        let again = try poser.run(segments: [0...1.5], progress: nil)
        #expect(again.times.framesDecoded == 0 && again.detectorRuns == 0 && again.frames.map(\.time) == out.frames.map(\.time))
    }

    /// Looking through a piece again for someone who swings reads the frames its first pose decoded instead of
    /// decoding them again (``PieceFrames``), and poses exactly what decoding them again posed; a piece whose frames
    /// do not fit the budget is decoded again.
    @Test func aSecondLookAtAPieceReadsItsFramesAgainWithoutDecoding() throws {
        let path = try Self.video(heights: [380.0, 320], seed: 4, name: "second-look.mp4")
        defer { try? FileManager.default.removeItem(atPath: path) }
        func run(search: Bool, budget: Int) throws -> WindowPoser.Output {
            var poser = try Self.poser(path, player: .largest, biomech: search ? BiomechParameters(hand: .right) : nil)
            poser.searchNear = [1.0]
            poser.heldFrameBudget = budget
            return try poser.run(segments: [0...1.5], progress: nil)
        }
        let firstOnly = try run(search: false, budget: PieceFrames.defaultBudgetBytes)
        let held = try run(search: true, budget: PieceFrames.defaultBudgetBytes)
        let decoded = try run(search: true, budget: 0)
        // Nobody swings in a still picture, so the second person is posed through the contact's core: from the
        // held frames, nothing more is decoded; without them the core is decoded again.
        #expect(held.times.framesDecoded == firstOnly.times.framesDecoded,
                "\(held.times.framesDecoded) frames decoded with the piece held, \(firstOnly.times.framesDecoded) for its first pose")
        #expect(decoded.times.framesDecoded > firstOnly.times.framesDecoded, "the search decoded nothing again: it did not run")
        #expect(held.frames.count == decoded.frames.count && !held.frames.isEmpty)
        for (a, b) in zip(held.frames, decoded.frames) {
            #expect(a.time == b.time && a.pose?.landmarks == b.pose?.landmarks, "frame at \(a.time) posed differently from held frames")
        }
    }

    /// Passes posed together by one set of workers (the last pass beside the pieces looked at again) pose each
    /// piece as that pass alone poses it: its own schedule (also the frames the decoder may drop), its own choice of
    /// person and its own record, whichever worker took it and whatever it read before; the stage's times are
    /// counted once, in the first pass's output.
    @Test func passesPosedTogetherPoseWhatEachPosesAlone() throws {
        let path = try Self.video(heights: [380.0, 300], seed: 5, name: "together.mp4")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let estimators = try (0..<2).map { _ in try PoseEstimator(modelsDirectory: TestFiles.package("Models")) }
        func passes(workers: Int) throws -> [(poser: WindowPoser, segments: [ClosedRange<Double>])] {
            var looked = try Self.poser(path, player: .largest, biomech: BiomechParameters(hand: .right), estimators: Array(estimators.prefix(workers)))
            looked.recordFirstPoses = true
            looked.skipUnposed = true
            var rest = try Self.poser(path, player: .nearest(Point2(x: 960.0 / 1280, y: 420.0 / 720)), spans: [0.3...0.35],
                                      estimators: Array(estimators.prefix(workers)))
            rest.skipUnposed = true
            return [(looked, [0...0.6, 0.6...1.5]), (rest, [0.2...0.9, 1.0...1.4])]
        }
        for workers in [1, 2] {
            let together = try WindowPoser.run(try passes(workers: workers), progress: nil)
            #expect(together.count == 2)
            var decoded = 0
            for (k, pass) in try passes(workers: 1).enumerated() {
                let alone = try pass.poser.run(segments: pass.segments, progress: nil)
                decoded += alone.times.framesDecoded
                #expect(together[k].frames.map(\.time) == alone.frames.map(\.time), "pass \(k), \(workers) workers")
                #expect(together[k].frames.map { $0.pose?.landmarks } == alone.frames.map { $0.pose?.landmarks }, "pass \(k), \(workers) workers")
                #expect(together[k].detectorRuns == alone.detectorRuns && Set(together[k].firstPoses.keys) == Set(alone.firstPoses.keys))
            }
            #expect(Set(together[0].firstPoses.keys) == [0...0.6, 0.6...1.5] && together[1].firstPoses.isEmpty)
            #expect(together[0].frames.compactMap(\.pose).allSatisfy { abs(($0.landmarks[23].x + $0.landmarks[24].x) / 2 - 300) < 60 })
            #expect(together[1].frames.compactMap(\.pose).allSatisfy { abs(($0.landmarks[23].x + $0.landmarks[24].x) / 2 - 960) < 60 })
            #expect(together[1].times.framesDecoded == 0 && together[0].times.framesDecoded > 0)
            if workers == 1 { #expect(together[0].times.framesDecoded <= decoded) }
        }
    }

    /// A person found but smaller than the floor is not measured, and the stage says how big they were (the floor
    /// raised to 200 px here, so a 140-px person the detector surely finds is under it).
    @Test func peopleTooSmallAreNotMeasuredAndTheirSizeIsSaid() throws {
        let source = try Self.source.get()
        let court = PastedPerson.court(width: 1280, height: 720, seed: 6)
        let small = PastedPerson.paste(source, into: court, height: 140, hips: Point2(x: 640, y: 400))
        let path = try Self.video(small.frame, name: "small.mp4")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let out = try Self.poser(path, player: .largest, biomech: BiomechParameters(hand: .right), minimum: 200.0 / 720)
            .run(segments: [0...1.5], progress: nil)
        let measured = out.frames.contains { $0.pose != nil }
        #expect(!measured, "a 140-px person was measured under a 200-px floor")
        let reported = out.largestTooSmall
        let said = try #require(reported, "nobody too small was reported")
        #expect(said > 0.75 * 140 && said < 200, "said \(said) px for a 140-px person")
        // With the product's floor the same person is measured.
        let measuredByDefault = try Self.poser(path, player: .largest).run(segments: [0...1.5], progress: nil).frames.contains { $0.pose != nil }
        #expect(measuredByDefault, "a 140-px person in 720p is measured")
    }
}
