import Foundation
import SwingCore
import SwingTestSupport
import Testing
@testable import SwingPose

/// Who the tracker follows, and people small in the frame: a real person pasted at known sizes and places
/// (``PastedPerson``), so where each of their landmarks should be is MediaPipe's reference moved by the paste.
@Suite struct PersonTrackingTests {
    typealias Pasted = PastedPerson

    static let source = Result { try PastedPerson.Source(photo: PoseFixtures.image("basketball1.png")) }

    /// `frame` with the person pasted so that they are `height` px tall with their hips at `hips`.
    static func paste(into frame: ImageBuffer, height: Double, hips: Point2) throws -> Pasted {
        PastedPerson.paste(try source.get(), into: frame, height: height, hips: hips)
    }

    static func court(width: Int, height: Int, seed: UInt64) -> ImageBuffer {
        PastedPerson.court(width: width, height: height, seed: seed)
    }

    /// Mean distance of the 33 landmarks from where they should be, in the person's heights.
    static func error(_ pose: PoseFrame, _ pasted: Pasted) -> Double {
        zip(pose.landmarks, pasted.landmarks).reduce(0) { sum, pair in
            sum + ((pair.0.x - pair.1.x) * (pair.0.x - pair.1.x) + (pair.0.y - pair.1.y) * (pair.0.y - pair.1.y)).squareRoot()
        } / 33 / pasted.height
    }

    /// People from a seventh of the frame's shorter side (100 px in 720p) up, anywhere in frames of several shapes:
    /// found in tiles when the whole frame shows them too small, and posed where they are — every one of them with
    /// their hips where they are, and their landmarks as close as BlazePose puts them on a photo.
    @Test(arguments: [(1280, 720), (1920, 1080), (720, 1280), (854, 480)])
    func smallPeopleAreFoundAndPosedAnywhere(width: Int, height: Int) throws {
        let estimator = try PoseFixtures.estimator.get()
        var rng = SplitMix64(seed: UInt64(width * 7 + height))
        let short = Double(min(width, height))
        var errors: [Double] = []
        var missed: [String] = []
        for fraction in [1.0 / 7, 0.2, 0.3, 0.45, 0.7] {
            for _ in 0..<2 {
                let personHeight = fraction * short
                // Hips anywhere the whole body stays in the frame.
                let hips = Point2(x: rng.uniform(0.1 * personHeight + 20, Double(width) - 0.1 * personHeight - 20),
                                  y: rng.uniform(0.55 * personHeight, Double(height) - 0.5 * personHeight))
                let pasted = try Self.paste(into: Self.court(width: width, height: height, seed: rng.next()),
                                            height: personHeight, hips: hips)
                // Tracked as the analysis tracks a window: the region settles on the landmarks over a few frames.
                let tracker = PoseTracker(estimator: estimator)
                tracker.findSmallPeople = true
                tracker.uprightOnly = true
                tracker.choice = .largest
                var last: PoseFrame?
                for k in 0..<3 { last = try tracker.process(frame: pasted.frame, time: Double(k) / 30) }
                let place = "\(Int(personHeight)) px at \(Int(hips.x)),\(Int(hips.y))"
                guard let pose = last else { missed.append("\(place): nobody"); continue }
                let posedHips = Point2(x: (pose.landmarks[23].x + pose.landmarks[24].x) / 2,
                                       y: (pose.landmarks[23].y + pose.landmarks[24].y) / 2)
                let trueHips = Point2(x: (pasted.landmarks[23].x + pasted.landmarks[24].x) / 2,
                                      y: (pasted.landmarks[23].y + pasted.landmarks[24].y) / 2)
                let off = ((posedHips.x - trueHips.x) * (posedHips.x - trueHips.x) + (posedHips.y - trueHips.y) * (posedHips.y - trueHips.y)).squareRoot()
                if off > 0.2 * personHeight { missed.append("\(place): hips posed \(Int(off)) px away"); continue }
                errors.append(Self.error(pose, pasted))
            }
        }
        let sorted = errors.sorted()
        let median = sorted.isEmpty ? 1 : sorted[sorted.count / 2], worst = sorted.last ?? 1
        print("\(width)×\(height): posed \(errors.count)/10, mean landmark error median \(String(format: "%.1f", median * 100)) %, worst \(String(format: "%.1f", worst * 100)) % of height")
        #expect(missed.isEmpty, "\(width)×\(height): \(missed.joined(separator: "; "))")
        #expect(median < 0.03 && worst < 0.12, "\(width)×\(height): landmark errors \(sorted)")
    }

    /// Two people in view: the tracker follows the one it chose and, when that person is gone for a few frames,
    /// has no pose rather than the other person's; when they come back it has them again.
    @Test(arguments: [PersonChoice.largest, .nearest(Point2(x: 300.0 / 1280, y: 450.0 / 720))])
    func theTrackerNeverSwitchesPeople(choice: PersonChoice) throws {
        let estimator = try PoseFixtures.estimator.get()
        let background = Self.court(width: 1280, height: 720, seed: 3)
        let near = Point2(x: 300, y: 450), far = Point2(x: 950, y: 300)
        let (nearHeight, farHeight) = choice == .largest ? (500.0, 200.0) : (200.0, 500.0)
        let both = try Self.paste(into: Self.paste(into: background, height: nearHeight, hips: near).frame,
                                  height: farHeight, hips: far)
        let chosen = try Self.paste(into: background, height: nearHeight, hips: near)
        let other = try Self.paste(into: background, height: farHeight, hips: far)
        let tracker = PoseTracker(estimator: estimator)
        tracker.findSmallPeople = true
        tracker.uprightOnly = true
        tracker.choice = choice
        // Both in view, then only the other person, then both again.
        let frames = Array(repeating: both.frame, count: 4) + Array(repeating: other.frame, count: 3)
            + Array(repeating: both.frame, count: 3)
        for (k, frame) in frames.enumerated() {
            let pose = try tracker.process(frame: frame, time: Double(k) / 30, index: k)
            if (4..<7).contains(k) {
                #expect(pose == nil, "frame \(k): the chosen person is gone, yet a pose came back")
            } else {
                let p = try #require(pose, "frame \(k): the chosen person is in view")
                #expect(Self.error(p, chosen) < 0.08, "frame \(k): the pose is not on the chosen person")
            }
        }
    }

    /// A court with nobody on it: the tiles are searched on the first four frames but the first (whose whole picture
    /// showed nobody) and then on every fourth (a 720p frame's 28 tiles on every frame made a 7-second video without a
    /// person take 23 s); a small player who walks in is still found within four frames, and followed from then on
    /// without tiles.
    @Test func anEmptyCourtIsSearchedInTilesEveryFourthFrame() throws {
        let estimator = try PoseFixtures.estimator.get()
        let empty = Self.court(width: 1280, height: 720, seed: 11)
        let tracker = PoseTracker(estimator: estimator)
        tracker.findSmallPeople = true
        tracker.uprightOnly = true
        tracker.choice = .largest
        for k in 0..<20 { #expect(try tracker.process(frame: empty, time: Double(k) / 30, index: k) == nil) }
        #expect(tracker.tiledSearches == 3 + 4, "frames 2-4, then 8, 12, 16, 20: \(tracker.tiledSearches)")
        // A player 130 px tall (too small for the whole frame) walks in at frame 21.
        let player = try Self.paste(into: empty, height: 130, hips: Point2(x: 640, y: 500))
        var firstPose: Int?
        for k in 20..<32 {
            if try tracker.process(frame: player.frame, time: Double(k) / 30, index: k) != nil, firstPose == nil { firstPose = k }
        }
        let found = try #require(firstPose, "the small player was never found")
        #expect(found < 24, "found on frame \(found + 1), more than four frames after walking in")
        #expect(tracker.tiledSearches <= 7 + 4, "the player followed still searched in tiles: \(tracker.tiledSearches)")
    }

    /// Pointed at someone of a known size (``PersonChoice/like(position:size:)``): a person big enough for the whole
    /// frame is found and followed without searching the tiles (each search is 28 more detector runs in 720p), and
    /// a 300-px person beside them is not taken for them; pointed at a small person, the tiles are searched and that
    /// person is followed.
    @Test func pointingAtSomeoneBigSearchesNoTiles() throws {
        let estimator = try PoseFixtures.estimator.get()
        let background = Self.court(width: 1280, height: 720, seed: 5)
        let big = try Self.paste(into: background, height: 480, hips: Point2(x: 320, y: 430))
        let both = try Self.paste(into: big.frame, height: 120, hips: Point2(x: 960, y: 330))
        for (target, pasted, tiled) in [(big, big, false), (both, both, true)] {
            let tracker = PoseTracker(estimator: estimator)
            tracker.findSmallPeople = true
            tracker.uprightOnly = true
            tracker.minimumPersonFraction = 80.0 / 720
            let hips = Point2(x: pasted.hips.x / 1280, y: pasted.hips.y / 720)
            tracker.choice = .like(position: hips, size: pasted.height / 720)
            var poses: [PoseFrame] = []
            for k in 0..<4 { if let p = try tracker.process(frame: both.frame, time: Double(k) / 30, index: k) { poses.append(p) } }
            #expect(poses.count >= 3, "\(Int(pasted.height)) px: posed \(poses.count) of 4 frames")
            for p in poses { #expect(Self.error(p, target) < 0.08, "\(Int(pasted.height)) px: posed someone else") }
            #expect((tracker.tiledSearches > 0) == tiled, "\(Int(pasted.height)) px: \(tracker.tiledSearches) tiled searches")
        }
    }

    /// Pointed at someone of a known size whom the whole frame misses: a whole body a third to a half of the
    /// picture's height, which the frame shrunk to the detector's 224 px leaves too coarse, or someone cut by the
    /// bottom edge (the phone bench's walker at 57.5 s, hips at 0.95 of the height; on this photo the whole frame
    /// finds those, and they are skipped). They are looked for in tiles of about their size before the small-person
    /// tiles, and found and posed there with fewer detector runs than the small tiles take.
    @Test(arguments: [(1280, 720), (1920, 1080)])
    func someoneOfAKnownSizeTheWholeFrameMissesIsFoundInTilesOfTheirSize(width: Int, height: Int) throws {
        let estimator = try PoseFixtures.estimator.get()
        let w = Double(width), h = Double(height)
        let small = DetectionTiles.regions(width: width, height: height).count
        var checked = 0
        for (size, hipsY) in [(0.5, 0.97), (0.55, 0.93), (0.6, 0.98), (0.4, 0.96), (0.65, 0.99), (0.45, 0.62), (0.5, 0.6), (0.35, 0.6)] {
            let pasted = try Self.paste(into: Self.court(width: width, height: height, seed: 3), height: size * h, hips: Point2(x: 0.45 * w, y: hipsY * h))
            let hips = Point2(x: pasted.hips.x / w, y: pasted.hips.y / h)
            let like = PersonChoice.like(position: hips, size: size)
            // Only where the whole frame does miss them is this the case under test.
            let whole = try estimator.detectPeople(in: pasted.frame, tiles: false)
            guard !whole.contains(where: { PoseTracker.isLike($0, position: hips, size: size, in: pasted.frame) }) else { continue }
            checked += 1
            let tracker = PoseTracker(estimator: estimator)
            tracker.findSmallPeople = true
            tracker.uprightOnly = true
            tracker.choice = like
            let pose = try tracker.process(frame: pasted.frame, time: 0, index: 0)
            let place = "\(width)×\(height), \(Int(size * h)) px, hips at \(hipsY) of the height"
            let p = try #require(pose, "\(place): nobody posed")
            let posedHips = Point2(x: (p.landmarks[23].x + p.landmarks[24].x) / 2, y: (p.landmarks[23].y + p.landmarks[24].y) / 2)
            #expect(abs(posedHips.x - pasted.hips.x) < 0.15 * size * h && abs(posedHips.y - pasted.hips.y) < 0.15 * size * h,
                    "\(place): posed at \(Int(posedHips.x)),\(Int(posedHips.y)), the person's hips are at \(Int(pasted.hips.x)),\(Int(pasted.hips.y))")
            // Their size's tiles alone found them: fewer detector runs than the small tiles would have taken.
            let side = try #require(DetectionTiles.fittingSide(personSize: size * h, width: width, height: height))
            let fitted = DetectionTiles.regions(width: width, height: height, side: side).count
            #expect(tracker.tileRuns == fitted && fitted < small, "\(place): \(tracker.tileRuns) tile runs (their size's tiles \(fitted), the small ones \(small))")
        }
        #expect(checked >= 2, "only \(checked) placements were missed by the whole frame: the case is not exercised")
        // Pointed at someone who is not there: their size's tiles are tried once, then the small tiles alone.
        let empty = Self.court(width: width, height: height, seed: 4)
        let tracker = PoseTracker(estimator: estimator)
        tracker.findSmallPeople = true
        tracker.uprightOnly = true
        tracker.choice = .like(position: Point2(x: 0.5, y: 0.6), size: 0.5)
        for k in 0..<4 { #expect(try tracker.process(frame: empty, time: Double(k) / 30, index: k) == nil) }
        let side = try #require(DetectionTiles.fittingSide(personSize: 0.5 * h, width: width, height: height))
        let fitted = DetectionTiles.regions(width: width, height: height, side: side).count
        #expect(tracker.tileRuns == fitted + 4 * small, "\(tracker.tileRuns) tile runs over 4 frames (their size's \(fitted), small \(small))")
    }

    /// Pointed at someone who is not there (a point the player tapped, or a person of a known size from a window's
    /// start): the tiles are searched on the first four frames and then on every fourth, as on an empty court, not on
    /// every frame (a broadcast window looking for a 95-px person who had left took 420 detector runs for 0.6 s); a
    /// small person who then walks in there is still found within four frames.
    @Test(arguments: [PersonChoice.nearest(Point2(x: 0.5, y: 0.6)), .like(position: Point2(x: 0.5, y: 0.6), size: 0.18)])
    func aPointedPersonWhoIsNotThereIsLookedForEveryFourthFrame(choice: PersonChoice) throws {
        let estimator = try PoseFixtures.estimator.get()
        let empty = Self.court(width: 1280, height: 720, seed: 12)
        let small = DetectionTiles.regions(width: 1280, height: 720).count
        // Their own tiles first, once: of their size, or for someone this small the one tile around the point.
        let fitted = DetectionTiles.fittingSide(personSize: 0.18 * 720, width: 1280, height: 720)
            .map { DetectionTiles.regions(width: 1280, height: 720, side: $0).count } ?? 1
        let tracker = PoseTracker(estimator: estimator)
        tracker.findSmallPeople = true
        tracker.uprightOnly = true
        tracker.choice = choice
        for k in 0..<20 { #expect(try tracker.process(frame: empty, time: Double(k) / 30, index: k) == nil) }
        let once = { if case .like = choice { return fitted } else { return 0 } }()
        #expect(tracker.tileRuns == once + (4 + 4) * small, "\(choice): \(tracker.tileRuns) tile runs over 20 frames (frames 1-4, 8, 12, 16, 20: \(8 * small) small, \(once) of their size)")
        // A 130-px player walks in at the point on frame 21.
        let player = try Self.paste(into: empty, height: 130, hips: Point2(x: 640, y: 0.6 * 720))
        var firstPose: Int?
        for k in 20..<32 where firstPose == nil {
            if try tracker.process(frame: player.frame, time: Double(k) / 30, index: k) != nil { firstPose = k }
        }
        let found = try #require(firstPose, "\(choice): the player was never found")
        #expect(found < 24, "\(choice): found on frame \(found + 1), more than four frames after walking in")
    }

    /// Pointed at someone small of a known size (a window's own person again, or the next one tried for who hits):
    /// the one small tile centred where they were finds them, anywhere in the picture, edges and corners included
    /// (one detector run on a tile instead of 28); they are posed where they are.
    @Test(arguments: [(1280, 720), (1920, 1080), (720, 1280)])
    func someoneSmallOfAKnownSizeIsFoundInTheTileAroundThem(width: Int, height: Int) throws {
        let estimator = try PoseFixtures.estimator.get()
        let w = Double(width), h = Double(height), short = Double(min(width, height))
        var rng = SplitMix64(seed: UInt64(width))
        var found = 0, placed = 0
        for k in 0..<8 {
            let size = rng.uniform(0.14, 0.2) * short
            // Hips anywhere the whole body stays in the picture, the first two at corners.
            let x = k == 0 ? 0.3 * size : k == 1 ? w - 0.3 * size : rng.uniform(0.3 * size, w - 0.3 * size)
            let y = k < 2 ? h - 0.55 * size : rng.uniform(0.55 * size, h - 0.55 * size)
            let pasted = try Self.paste(into: Self.court(width: width, height: height, seed: UInt64(k)), height: size, hips: Point2(x: x, y: y))
            // Only someone the whole frame misses (too small for it) is the case under test.
            let whole = try estimator.detectPeople(in: pasted.frame, tiles: false)
            let hips = Point2(x: pasted.hips.x / w, y: pasted.hips.y / h)
            guard !whole.contains(where: { PoseTracker.isLike($0, position: hips, size: size / h, in: pasted.frame) }) else { continue }
            placed += 1
            let tracker = PoseTracker(estimator: estimator)
            tracker.findSmallPeople = true
            tracker.uprightOnly = true
            tracker.minimumPersonFraction = 80.0 / 720
            tracker.choice = .like(position: hips, size: size / h)
            guard let pose = try tracker.process(frame: pasted.frame, time: 0, index: 0) else { continue }
            found += 1
            #expect(Self.error(pose, pasted) < 0.08, "\(width)×\(height), \(Int(size)) px at \(Int(x)),\(Int(y)): posed someone else")
            #expect(tracker.tileRuns == 1, "\(width)×\(height), \(Int(size)) px at \(Int(x)),\(Int(y)): \(tracker.tileRuns) tile runs")
        }
        #expect(placed >= 4 && found == placed, "\(width)×\(height): found \(found) of \(placed) small people in the tile around them")
    }

    /// The tile around a point: the small tiles' side, inside the frame, centred on the point unless an edge is nearer
    /// than half a side.
    @Test func theTileAroundAPointStaysInTheFrame() {
        var rng = SplitMix64(seed: 9)
        for _ in 0..<500 {
            let width = rng.int(2...4000), height = rng.int(2...4000)
            let point = Point2(x: rng.uniform(-100, Double(width) + 100), y: rng.uniform(-100, Double(height) + 100))
            guard let tile = DetectionTiles.around(point, width: width, height: height) else {
                Issue.record("no tile in \(width)×\(height)"); continue
            }
            let side = tile.width, short = Double(min(width, height))
            #expect(side == tile.height && side == min(short, max(1, (short / 3).rounded())))
            #expect(tile.centerX - side / 2 >= -1e-9 && tile.centerX + side / 2 <= Double(width) + 1e-9)
            #expect(tile.centerY - side / 2 >= -1e-9 && tile.centerY + side / 2 <= Double(height) + 1e-9)
            if point.x >= side / 2, point.x <= Double(width) - side / 2 { #expect(abs(tile.centerX - point.x) < 1e-9) }
            if point.y >= side / 2, point.y <= Double(height) - side / 2 { #expect(abs(tile.centerY - point.y) < 1e-9) }
        }
        #expect(DetectionTiles.around(Point2(x: .nan, y: 0), width: 100, height: 100) == nil)
        #expect(DetectionTiles.around(Point2(x: 0, y: 0), width: 1, height: 100) == nil)
    }

    /// The tiles of a person's size: one and a half times their size, at most the frame's shorter side, and none
    /// where that is not coarser than the small-person tiles.
    @Test func tilesOfAPersonsSize() {
        #expect(DetectionTiles.fittingSide(personSize: 380, width: 1280, height: 720) == 570)
        #expect(DetectionTiles.fittingSide(personSize: 580, width: 1920, height: 1080) == 870)
        #expect(DetectionTiles.fittingSide(personSize: 900, width: 1280, height: 720) == 720)
        #expect(DetectionTiles.fittingSide(personSize: 200, width: 1280, height: 720) == nil, "300 px is about the small tiles' 240")
        #expect(DetectionTiles.fittingSide(personSize: .nan, width: 1280, height: 720) == nil)
        #expect(DetectionTiles.fittingSide(personSize: 380, width: 1, height: 720) == nil)
        #expect(DetectionTiles.regions(width: 1280, height: 720, side: 570).count == 6)
    }

    // MARK: - The pieces, exhaustively

    /// Tiles cover every pixel of frames of any shape, lie inside them, and overlap their neighbours by a quarter.
    @Test func tilesCoverTheFrame() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<300 {
            let w = rng.int(2...4000), h = rng.int(2...4000)
            // The small-person tiles, or tiles of a requested side (up to beyond the frame's shorter side).
            let requested: Double? = rng.int(0...1) == 0 ? nil : rng.uniform(2, 1.3 * Double(min(w, h)) + 2)
            let tiles = DetectionTiles.regions(width: w, height: h, side: requested)
            let side = min(Double(min(w, h)), requested ?? (Double(min(w, h)) * DetectionTiles.fraction).rounded())
            #expect(!tiles.isEmpty)
            for t in tiles {
                #expect(t.width == side && t.height == side && t.rotation == 0)
                #expect(t.centerX - side / 2 >= 0 && t.centerX + side / 2 <= Double(w) + 1e-9, "\(w)×\(h)")
                #expect(t.centerY - side / 2 >= 0 && t.centerY + side / 2 <= Double(h) + 1e-9, "\(w)×\(h)")
            }
            // Neighbouring tiles overlap by at least a quarter of a side, across and down.
            for centres in [Set(tiles.map(\.centerX)).sorted(), Set(tiles.map(\.centerY)).sorted()] {
                for (a, b) in zip(centres, centres.dropFirst()) {
                    #expect(b - a <= side * (1 - DetectionTiles.overlap) + 1e-9, "\(w)×\(h)")
                }
            }
            // Every pixel is inside some tile.
            for _ in 0..<20 {
                let x = rng.uniform(0, Double(w)), y = rng.uniform(0, Double(h))
                #expect(tiles.contains { abs($0.centerX - x) <= side / 2 && abs($0.centerY - y) <= side / 2 }, "\(w)×\(h) at \(x),\(y)")
            }
        }
    }

    /// A person is admitted where a person can have got to in the time since (four body sizes a second, never
    /// less than a tenth, never more than two), at about their size (1.3 times bigger or smaller a frame later,
    /// more the longer they were lost); never at a size or place that is not a number.
    @Test func identityAdmitsOnlyWhereThePersonCanBe() {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<3000 {
            let size = rng.uniform(20, 1000)
            let id = PersonIdentity(center: Point2(x: rng.uniform(0, 2000), y: rng.uniform(0, 2000)), size: size, time: rng.uniform(0, 100))
            let dt = [1.0 / 240, 1.0 / 30, 1.0 / 15, 0.2, 1, 5][rng.int(0...5)]
            let angle = rng.uniform(0, 2 * Double.pi)
            let ratio = exp(rng.uniform(-0.8, 0.8))
            let s = size * ratio
            let step = rng.uniform(0, 2.5)
            let c = Point2(x: id.center.x + cos(angle) * step * max(size, s), y: id.center.y + sin(angle) * step * max(size, s))
            let reach = min(2, max(0.1, 4 * dt)), bound = min(2, 1.3 + dt)
            let ok = step <= reach && ratio <= bound && ratio >= 1 / bound
            // Away from the boundary (rounding) the answer is exact.
            guard abs(step - reach) > 1e-9, abs(ratio - bound) > 1e-9, abs(ratio - 1 / bound) > 1e-9 else { continue }
            #expect(id.admits(center: c, size: s, at: id.time + dt) == ok, "dt \(dt), step \(step), ratio \(ratio)")
        }
        // Two people side by side, half a body apart, are never one another a frame later.
        let id = PersonIdentity(center: Point2(x: 500, y: 500), size: 300, time: 0)
        #expect(!id.admits(center: Point2(x: 650, y: 500), size: 300, at: 1.0 / 30))
        #expect(!id.admits(center: Point2(x: 650, y: 500), size: 300, at: 1.0 / 15))
        #expect(id.admits(center: Point2(x: 520, y: 500), size: 310, at: 1.0 / 30))
        for bad in [Double.nan, 0, -5, .infinity] { #expect(!id.admits(center: Point2(x: 500, y: 500), size: bad, at: 0.1)) }
        #expect(!id.admits(center: Point2(x: .nan, y: 500), size: 300, at: 0.1))
    }

    /// Every choice picks a candidate with its own extreme (the biggest among people whose hips are in the picture),
    /// and none from an empty list.
    @Test func choicesPickTheirExtreme() throws {
        var rng = SplitMix64(seed: 9)
        for _ in 0..<300 {
            let n = rng.int(0...6)
            let candidates = (0..<n).map { _ in
                PersonCandidate(PersonDetection(score: rng.uniform(0.5, 1), xmin: 0, ymin: 0, width: 0.1, height: 0.1,
                                                keypoints: [Point2(x: rng.uniform(-0.2, 1.2), y: rng.uniform(-0.2, 1.2)),
                                                            Point2(x: rng.uniform(0, 1), y: rng.uniform(0, 1)),
                                                            Point2(x: 0, y: 0), Point2(x: 0, y: 0)]),
                                width: 1280, height: 720)
            }
            let p = Point2(x: rng.uniform(0, 1), y: rng.uniform(0, 1))
            guard n > 0 else {
                #expect(PersonChoice.largest.pick(candidates) == nil); continue
            }
            let big = try #require(PersonChoice.largest.pick(candidates))
            // The biggest whole in the picture; someone cut by its edge only when nobody is whole, and then one whose
            // hips are in it if anyone's are.
            let whole = candidates.filter(\.wholeInFrame), hips = candidates.filter(\.hipsInFrame)
            let among = !whole.isEmpty ? whole : !hips.isEmpty ? hips : candidates
            #expect(among.allSatisfy { $0.size <= candidates[big].size })
            #expect(candidates[big].wholeInFrame || whole.isEmpty)
            #expect(candidates[big].hipsInFrame || hips.isEmpty)
            for c in candidates {
                #expect(c.wholeInFrame == (c.hipsInFrame && c.center.y + PersonCandidate.feetBelowHips * c.size <= 720))
            }
            let sure = try #require(PersonChoice.mostConfident.pick(candidates))
            #expect(candidates.allSatisfy { $0.score <= candidates[sure].score })
            let near = try #require(PersonChoice.nearest(p).pick(candidates))
            func d(_ c: PersonCandidate) -> Double { (c.position.x - p.x) * (c.position.x - p.x) + (c.position.y - p.y) * (c.position.y - p.y) }
            #expect(candidates.allSatisfy { d($0) >= d(candidates[near]) })
        }
    }
}
