import Foundation
import SwingBiomech
import SwingCore
import SwingMedia
import SwingPose
import SwingTestSupport
import Testing
@testable import SwingPipeline

/// The player says who they are (issue #39): the mark's text form and its refusals, whom a mark picks among the
/// people of a window, the people the picker lists in a frame of two real people (``PastedPerson``), and the
/// analysis looking up the person tapped at the mark's moment.
@Suite struct PlayerMarkTests {
    @Test func aMarkReadsBackItsTextAndSaysWhatIsWrongInOneSentence() {
        var rng = SplitMix64(seed: 39)
        for _ in 0..<300 {
            let mark = PlayerMark(x: rng.uniform(0, 1), y: rng.uniform(0, 1), time: rng.int(0...1) == 0 ? nil : rng.uniform(0, 600))
            let read = PlayerMark(text: mark.description)
            #expect(read != nil && mark.problem == nil)
            if let read {
                #expect(abs(read.x - mark.x) < 1e-4 && abs(read.y - mark.y) < 1e-4)
                #expect((read.time == nil) == (mark.time == nil) && abs((read.time ?? 0) - (mark.time ?? 0)) < 1e-3)
            }
        }
        #expect(PlayerMark(text: " 0.25 , 0.75 @ 4.5 ") == PlayerMark(x: 0.25, y: 0.75, time: 4.5))
        for shapeless in ["", "0.5", "0.5,", "0.5,0.5,0.5", "a,b", "0.5,0.5@", "0.5,0.5@x", "@1", "0.5;0.5"] {
            #expect(PlayerMark(text: shapeless) == nil, "\(shapeless) read as a mark")
        }
        for bad in ["1.5,0.2", "0.2,-0.1", "nan,0.5", "0.5,inf", "0.5,0.5@-1", "0.5,0.5@nan", "0.5,0.5@1e300", "1e300,0"] {
            let problem = PlayerMark(text: bad)?.problem
            #expect(problem.map(ErrorSentence.isWellFormed) == true, "\(bad): \(problem ?? "accepted")")
            #expect((problem?.count ?? 0) < 200, "an absurd number is printed whole: \(problem ?? "")")
        }
    }

    /// `.like` takes the person of about the size seen (within ``PersonChoice/likeSizeRatio``) nearest where they
    /// stood, and the nearest of all when nobody is of that size; a mark without a moment takes the nearest.
    @Test func likeTakesTheNearestPersonOfAboutTheSizeSeen() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let people = (0..<rng.int(1...6)).map { _ in
                PersonCandidate(score: rng.uniform(0.5, 1), center: Point2(x: rng.uniform(0, 1280), y: rng.uniform(0, 720)),
                                size: rng.uniform(60, 700), width: 1280, height: 720)
            }
            let position = Point2(x: rng.uniform(0, 1), y: rng.uniform(0, 1)), size = rng.uniform(0.1, 0.9)
            let i = try #require(PersonChoice.like(position: position, size: size).pick(people))
            func d(_ p: PersonCandidate) -> Double { SessionAnalyzer.squaredDistance(p.position, position) }
            let alike = people.filter { $0.sizeFraction <= size * 2 && $0.sizeFraction >= size / 2 }
            if alike.isEmpty {
                #expect(people.allSatisfy { d($0) >= d(people[i]) })
            } else {
                #expect(alike.contains(people[i]), "took someone of another size while someone alike was there")
                #expect(alike.allSatisfy { d($0) >= d(people[i]) })
            }
            let nearest = try #require(PersonChoice.marked(PlayerMark(x: position.x, y: position.y)).pick(people))
            #expect(people.allSatisfy { d($0) >= d(people[nearest]) })
        }
        #expect(PersonChoice.like(position: Point2(x: 0, y: 0), size: 0.3).pick([]) == nil)
    }

    /// Two real people, 250 and 380 px tall at x = 300 and 960 of a 1280×720 court.
    static func twoPeople() throws -> (frame: ImageBuffer, left: PastedPerson, right: PastedPerson) {
        let source = try WindowPersonTests.source.get()
        let court = PastedPerson.court(width: 1280, height: 720, seed: 11)
        let left = PastedPerson.paste(source, into: court, height: 250, hips: Point2(x: 300, y: 420))
        let right = PastedPerson.paste(source, into: left.frame, height: 380, hips: Point2(x: 960, y: 420))
        return (right.frame, left, right)
    }

    /// Each person is outlined around their body, left to right, with the hips the pose stage compares.
    @Test func thePickerListsEachPersonWithTheirOutlineAndHips() throws {
        let (frame, left, right) = try Self.twoPeople()
        let estimator = try PoseEstimator(modelsDirectory: TestFiles.package("Models"))
        let people = try PeopleFinder.people(in: frame, estimator: estimator)
        try #require(people.count == 2, "found \(people.count): \(people)")
        for (found, truth) in zip(people, [left, right]) {
            let hips = Point2(x: truth.hips.x / 1280, y: truth.hips.y / 720)
            #expect(found.box.contains(hips), "\(found.box) misses the hips \(hips)")
            #expect(abs(found.hips.x - hips.x) < 0.03 && abs(found.hips.y - hips.y) < 0.05, "\(found.hips) vs \(hips)")
            // The outline holds the body: the head and the feet of the pasted person (their landmarks' extent).
            let top = truth.landmarks.map(\.y).min() ?? 0, bottom = truth.landmarks.map(\.y).max() ?? 0
            #expect(found.box.y1 <= top / 720 + 0.02 && found.box.y2 >= bottom / 720 - 0.03, "\(found.box) vs body \(top)–\(bottom)")
            #expect(found.box.height < 1.4 * truth.height / 720, "the outline is much taller than the person")
            #expect(abs(found.size * 720 / truth.height - 1) < 0.35, "size \(found.size * 720) px for a \(truth.height)-px person")
        }
        // Nobody on an empty court.
        #expect(try PeopleFinder.people(in: PastedPerson.court(width: 1280, height: 720, seed: 3), estimator: estimator).isEmpty)
    }

    /// A picture in memory: its size is read from the header before anything is decoded, so a small file that
    /// claims to be huge is refused with a sentence, and so is anything that is not a JPEG or PNG.
    @Test func aPictureTooBigOrNotAPictureIsRefusedBeforeDecoding() throws {
        let estimator = try PoseEstimator(modelsDirectory: TestFiles.package("Models"))
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + Data("IHDR".utf8)
        png += Data([0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 2, 0, 0, 0, 0, 0, 0, 0])   // 20000 × 20000
        #expect(ImageIO.pictureSize(of: png).map { [$0.width, $0.height] } == [20_000, 20_000])
        for (data, words) in [(png, "20000×20000"), (Data("hello".utf8), "not a readable JPEG or PNG"), (Data(), "not a readable")] {
            let error = #expect(throws: MediaError.self) { try PeopleFinder.people(inPicture: data, estimator: estimator) }
            #expect(error?.message.contains(words) == true && error.map { ErrorSentence.isWellFormed($0.message) } == true, "\(String(describing: error))")
        }
        let jpeg = try TestFiles.temporaryDirectory("player-mark").appendingPathComponent("messi.jpg")
        defer { try? FileManager.default.removeItem(at: jpeg.deletingLastPathComponent()) }
        try ImageIO.save(try Self.twoPeople().frame, to: jpeg.path)
        let bytes = try Data(contentsOf: jpeg)
        #expect(ImageIO.pictureSize(of: bytes).map { [$0.width, $0.height] } == [1280, 720])
        let found = try PeopleFinder.people(inPicture: bytes, estimator: estimator)
        #expect(found.people.count == 2 && found.width == 1280 && found.time == nil)
    }

    /// At the mark's moment the person nearest the point (a tap on the chest, not the hips) is found and followed
    /// as that person; a moment with no frame, or nobody there, falls back to the nearest person with a note.
    @Test func theAnalysisLooksUpThePersonTappedAtTheMarksMoment() throws {
        let (frame, left, right) = try Self.twoPeople()
        let path = try WindowPersonTests.video(frame, name: "tapped.mp4")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let estimator = try PoseEstimator(modelsDirectory: TestFiles.package("Models"))
        for truth in [left, right] {
            let chest = Point2(x: truth.hips.x / 1280 + 0.01, y: (truth.hips.y - 0.2 * truth.height) / 720)
            var options = AnalysisOptions()
            options.player = .marked(PlayerMark(x: chest.x, y: chest.y, time: 0.5))
            let analyzer = try SessionAnalyzer(options: options, modelsDirectory: TestFiles.package("Models"))
            let resolved = try analyzer.resolvedPlayer(path: path, maxSide: 1920, estimator: estimator)
            #expect(resolved.note == nil)
            guard case .like(let position, let size) = resolved.choice else {
                Issue.record("not looked up: \(resolved.choice)"); continue
            }
            #expect(abs(position.x - truth.hips.x / 1280) < 0.03, "followed hips at \(position.x), tapped \(truth.hips.x / 1280)")
            #expect(abs(size * 720 / truth.height - 1) < 0.35)
            // The windows follow that person.
            let out = try WindowPersonTests.poser(path, player: resolved.choice).run(segments: [0...1.5], progress: nil)
            let poses = out.frames.compactMap(\.pose)
            #expect(!poses.isEmpty)
            for p in poses { #expect(abs((p.landmarks[23].x + p.landmarks[24].x) / 2 - truth.hips.x) < 60) }
        }
        var late = AnalysisOptions()
        late.player = .marked(PlayerMark(x: 0.5, y: 0.5, time: 40))
        let past = try SessionAnalyzer(options: late, modelsDirectory: TestFiles.package("Models"))
            .resolvedPlayer(path: path, maxSide: 1920, estimator: estimator)
        #expect(past.choice == late.player && past.note?.hasPrefix(SessionAnalyzer.playerNotePrefix) == true, "\(past)")
        if let note = past.note { #expect(ErrorSentence.isWellFormed(note)) }
    }
}
