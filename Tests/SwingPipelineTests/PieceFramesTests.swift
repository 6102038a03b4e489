import SwingCore
import SwingMedia
import SwingTestSupport
import Testing
@testable import SwingPipeline

/// What a piece's held frames give back: exactly the frames a reader would deliver for a part of the piece, and
/// nothing (so the caller decodes) unless every frame of the piece is held within the budget.
@Suite struct PieceFramesTests {
    /// A `bytes`-byte frame at `time`.
    static func frame(_ time: Double, index: Int, bytes: Int = 12) -> VideoFrame {
        VideoFrame(image: ImageBuffer(width: bytes / 3, height: 1), time: time, index: index)
    }

    /// Over random pieces, frame rates and parts: the frames given back are those of the part, ends included within
    /// the reader's tolerance, in order.
    @Test(arguments: 0..<6)
    func aPartGivesTheFramesAReaderWould(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let fps = [24.0, 30, 60, 120][Int.random(in: 0..<4, using: &rng)]
        let start = Double.random(in: 0..<10, using: &rng), length = Double.random(in: 0.2..<3, using: &rng)
        let piece = start...(start + length)
        let first = Int((start * fps).rounded(.up))
        var times: [Double] = []
        for i in first... {
            let t = Double(i) / fps
            if t > piece.upperBound { break }
            if Bool.random(using: &rng) || times.isEmpty { times.append(t) }
        }
        var held = PieceFrames(range: piece, expectedFrames: times.count)
        for (k, t) in times.enumerated() { held.keep(Self.frame(t, index: first + k)) }
        held.finish()
        for _ in 0..<20 {
            let a = Double.random(in: piece, using: &rng), b = Double.random(in: a...piece.upperBound, using: &rng)
            // A frame exactly on an end, give or take float noise, is in.
            let part = [a...b, (times[0] + 5e-5)...b, a...max(a, times[times.count - 1] - 5e-5)].randomElement(using: &rng) ?? a...b
            let eps = VideoFrameReader.timeEpsilon
            let expected = times.filter { $0 >= part.lowerBound - eps && $0 <= part.upperBound + eps }
            #expect(held.frames(in: part)?.map(\.time) == expected, "part \(part) of \(piece)")
        }
        // Outside the piece nothing is given: the reader must decode.
        #expect(held.frames(in: (piece.lowerBound - 0.1)...piece.upperBound) == nil)
        #expect(held.frames(in: piece.lowerBound...(piece.upperBound + 0.1)) == nil)
    }

    /// A piece not read to its end, or whose frames outgrow the budget, gives nothing back and holds nothing; one
    /// expected to outgrow it (its frame count times its first frame's size) holds not even its first frame.
    @Test func anUnfinishedOrTooBigPieceGivesNothing() {
        var unfinished = PieceFrames(range: 0...1, expectedFrames: 1)
        unfinished.keep(Self.frame(0, index: 0))
        #expect(unfinished.frames(in: 0...0.5) == nil)
        for budget in [0, 11, 12, 35, 36, 1000] {
            for expected in [1, 3, 4, Int.max / 2] {
                var held = PieceFrames(range: 0...1, expectedFrames: expected, budgetBytes: budget)
                held.keep(Self.frame(0, index: 0))
                let expectedFits = expected <= budget / 12
                #expect(held.frames.count == (expectedFits ? 1 : 0),
                        "budget \(budget), \(expected) frames expected: the first frame held \(held.frames.count) times")
                for i in 1..<3 { held.keep(Self.frame(Double(i) / 10, index: i)) }
                held.finish()
                let fits = budget >= 36 && expectedFits
                #expect((held.frames(in: 0...1)?.count) == (fits ? 3 : nil), "budget \(budget), \(expected) frames expected")
                #expect(held.frames.count == (fits ? 3 : 0), "budget \(budget), \(expected) frames expected: frames held past the budget")
            }
        }
    }
}
