import Foundation
import SwingCore
@testable import SwingMedia
import Testing

@Suite struct VideoFrameReaderTests {
    @Test func sequentialFramesHaveExactTimesAndIndices() throws {
        let reader = try VideoFrameReader(path: try Fixtures.shared.smallMP4())
        var count = 0
        while let f = try reader.nextFrame() {
            #expect(f.index == count)
            #expect(abs(f.time - Double(count) / 30) < 1e-6)
            #expect(f.image.width == 320 && f.image.height == 240)
            count += 1
        }
        #expect(count == 180)
    }

    /// `skipDeblocking` only changes pixels: the same frames at the same times, close to the filtered
    /// pictures, different where the encoder's filter had work; nothing changes without a filter.
    @Test func skippingDeblockingKeepsEveryFrameAndChangesOnlyPixels() throws {
        func decode(_ path: String, skip: Bool) throws -> [VideoFrame] {
            let reader = try VideoFrameReader(path: path)
            reader.skipDeblocking = skip
            var frames: [VideoFrame] = []
            while let f = try reader.nextFrame() { frames.append(f) }
            return frames
        }
        let deblocked = try Fixtures.shared.deblockedMP4()
        let filtered = try decode(deblocked, skip: false), skipped = try decode(deblocked, skip: true)
        #expect(filtered.count == 60 && skipped.count == 60)
        #expect(filtered.map(\.index) == skipped.map(\.index) && filtered.map(\.time) == skipped.map(\.time))
        var changed = 0, worstMean = 0.0
        for (a, b) in zip(filtered, skipped) {
            let diff = zip(a.image.pixels, b.image.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            if diff > 0 { changed += 1 }
            worstMean = max(worstMean, Double(diff) / Double(a.image.pixels.count))
        }
        #expect(changed > 30, "only \(changed) of 60 frames changed without the deblocking filter")
        #expect(worstMean < 8, "a frame moved by \(worstMean) levels per channel on average")
        // x264 `ultrafast` encodes without the filter: skipping it changes nothing.
        let plain = try Fixtures.shared.smallMP4()
        #expect(try decode(plain, skip: true).map(\.image) == decode(plain, skip: false).map(\.image))
    }

    @Test func windowSeeksToTheRightFrames() throws {
        let path = try Fixtures.shared.smallMP4()
        // Reference pictures by decoding from the start (no seeking involved).
        let sequential = try VideoFrameReader(path: path)
        var reference: [Int: ImageBuffer] = [:]
        while let f = try sequential.nextFrame(), f.index <= 75 {
            if [60, 67, 75].contains(f.index) { reference[f.index] = f.image }
        }
        let reader = try VideoFrameReader(path: path)
        var got: [VideoFrame] = []
        try reader.frames(from: 2.0, to: 2.5) { got.append($0); return true }
        #expect(got.map(\.index) == Array(60...75))
        #expect(got.allSatisfy { $0.time >= 2.0 - 1e-6 && $0.time <= 2.5 + 1e-6 })
        for f in got where reference[f.index] != nil {
            #expect(f.image == reference[f.index], "frame \(f.index) after a seek matches sequential decoding")
        }
        // Going backwards works too (a new seek, not a continuation).
        var back: [Int] = []
        try reader.frames(from: 0.5, to: 0.6) { back.append($0.index); return true }
        #expect(back == [15, 16, 17, 18])
    }

    @Test func successiveWindowsMatchFreshReads() throws {
        // Windows in time order reuse the decoder position; the frames must be exactly those a
        // fresh reader (which seeks) returns, including the frame that ended the previous window.
        let path = try Fixtures.shared.smallMP4()
        let windows: [(Double, Double)] = [(1.0, 1.5), (1.51, 2.0), (2.4, 2.6), (4.0, 4.2), (3.0, 3.1)]
        let shared = try VideoFrameReader(path: path)
        for (a, b) in windows {
            var got: [VideoFrame] = [], want: [VideoFrame] = []
            try shared.frames(from: a, to: b) { got.append($0); return true }
            try VideoFrameReader(path: path).frames(from: a, to: b) { want.append($0); return true }
            #expect(got.map(\.index) == want.map(\.index), "window \(a)–\(b)")
            #expect(got.map(\.image) == want.map(\.image), "window \(a)–\(b) pixels")
            #expect(!got.isEmpty)
        }
        // After a window, nextFrame continues with the frame right after it.
        try shared.frames(from: 5.0, to: 5.1) { _ in true }
        #expect(try shared.nextFrame()?.index == 154)
    }

    @Test func strideAndEarlyStop() throws {
        let reader = try VideoFrameReader(path: try Fixtures.shared.smallMP4())
        var idx: [Int] = []
        try reader.frames(from: 1, to: 2, stride: 3) { idx.append($0.index); return true }
        #expect(idx == Array(Swift.stride(from: 30, through: 60, by: 3)))
        var n = 0
        try reader.frames(from: 1, to: 5) { _ in n += 1; return n < 4 }
        #expect(n == 4)
    }

    @Test func selectSeesEveryWindowFrameAndOnlySelectedOnesAreDelivered() throws {
        let reader = try VideoFrameReader(path: try Fixtures.shared.smallMP4(), decoderThreads: 1)
        var seen: [Int] = [], delivered: [Int] = []
        try reader.frames(from: 1, to: 2, where: { t, index in
            #expect(abs(t * 30 - Double(index)) < 0.01)
            seen.append(index)
            return index % 4 == 0 || index == 45
        }) { delivered.append($0.index); return true }
        #expect(seen == Array(30...60))
        #expect(delivered == [32, 36, 40, 44, 45, 48, 52, 56, 60])
    }

    @Test func portraitVideoComesOutUpright() throws {
        let reader = try VideoFrameReader(path: try Fixtures.shared.rotatedMP4())
        let f = try #require(try reader.nextFrame())
        #expect(f.image.width == 240 && f.image.height == 320)
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(f.image.pixels[(y * 240 + x) * 3..<(y * 240 + x) * 3 + 3]) }
        // Same orientation as `ffmpeg -i rotated.mp4 out.png` (autorotate): right half (blue) on top.
        let top = pixel(120, 20), bottom = pixel(120, 300)
        #expect(top[2] > 200 && top[0] < 50, "top is blue: \(top)")
        #expect(bottom[0] > 200 && bottom[2] < 50, "bottom is red: \(bottom)")
    }

    @Test func resizesToTargetSize() throws {
        let reader = try VideoFrameReader(path: try Fixtures.shared.avMP4(), targetSize: (640, 360))
        let f = try #require(try reader.nextFrame())
        #expect(f.image.width == 640 && f.image.height == 360)
    }

    @Test func audioAndVideoShareOneTimeline() throws {
        // In av.mp4 the AAC track has 1024 priming samples; frame 90 must be at 3.0 s like the click.
        let path = try Fixtures.shared.avMP4()
        let reader = try VideoFrameReader(path: path)
        var frame90: VideoFrame?
        try reader.frames(from: 3.0, to: 3.0) { frame90 = $0; return false }
        #expect(frame90?.index == 90)
        let pcm = try AudioExtractor.extract(path, range: TimeRange(start: 2.9, duration: 0.2))
        let t = try #require(energyCentroid(pcm.samples, rate: pcm.sampleRate, startTime: pcm.startTime, near: 3.0))
        #expect(abs(t - 3.0) < 0.001)
    }

    @Test func badWindowIsRejected() throws {
        let reader = try VideoFrameReader(path: try Fixtures.shared.smallMP4())
        #expect(throws: MediaError.self) { try reader.frames(from: 2, to: 1) { _ in true } }
        #expect(throws: MediaError.self) { try reader.frames(from: 0, to: 1, stride: 0) { _ in true } }
    }
}
