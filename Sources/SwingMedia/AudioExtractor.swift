import CFFmpeg
import SwingCore

/// Decodes the primary audio track to mono Float32 PCM on the media timeline.
///
/// Timing: sample times come from the decoded frames' timestamps minus the media origin
/// (``MediaInfo/startTime`` clamped at 0). Encoder priming is removed where the file signals it
/// (MP4/MOV edit lists and `AV_PKT_DATA_SKIP_SAMPLES`, MP3 LAME headers, Opus pre-skip) by
/// libavcodec, which also shifts the frame timestamps; AAC in Matroska signals nothing, so
/// ``assumedAACPrimingSamples`` are dropped there. Samples before time 0 (codec pre-roll) are dropped.
package enum AudioExtractor {
    /// Priming samples assumed for AAC in Matroska/WebM, which stores no encoder delay
    /// (the AAC-LC frame length that FFmpeg, FDK and phone encoders prime with).
    package static let assumedAACPrimingSamples = 1024
    /// Audio decoded before a range start so the decoder's overlap state is warm (MDCT codecs
    /// need the previous frame; 0.5 s covers any common codec's frame + pre-roll).
    static let seekPreroll = 0.5
    /// Gaps between decoded frames longer than this (seconds) are filled with silence so later
    /// samples keep their true times.
    static let gapTolerance = 0.005

    /// The rate to analyse a track at: its own when that is a common full-band rate (22.05–96 kHz), so
    /// no resampling is needed (it cost half the time of `contacts` on a 48 kHz file); 44.1 kHz for
    /// anything else (unknown, or too low for the detector's bands).
    package static func analysisRate(for audio: AudioStreamInfo?) -> Int {
        guard let rate = audio?.sampleRate, (22_050...96_000).contains(rate) else { return 44_100 }
        return rate
    }

    /// Decodes, down-mixes to mono and resamples to Float32 at `sampleRate`, streaming packet by packet.
    /// - Parameters:
    ///   - path: A media file with an audio track.
    ///   - sampleRate: Output rate in Hz (8 000 … 384 000).
    ///   - range: Optional trim; the result starts at `range.start` to within one sample.
    ///   - progress: Called with stage `"audio"` and the fraction decoded.
    /// - Returns: The samples and the media time of the first one.
    /// - Throws: ``MediaError`` `.fileNotFound`, `.unreadable`, `.noAudioTrack`, `.invalidTimeRange`.
    package static func extract(_ path: String, sampleRate: Int = 44_100, range: TimeRange? = nil,
                               progress: ProgressHandler? = nil) throws -> AudioPCM {
        guard (8_000...384_000).contains(sampleRate) else {
            throw MediaError(.unreadable, "Cannot resample audio to \(sampleRate) Hz; choose 8000–384000 Hz.")
        }
        let input = try InputFile(path: path)
        guard let index = input.audioStreamIndex else {
            throw MediaError(.noAudioTrack, "\(path) has no audio track; Swingmaster finds contacts from the sound of the ball.")
        }
        let total = input.duration
        let start = range?.start ?? 0
        if let range {
            _ = try MediaValidator.selectedLength(
                MediaInfo(path: path, formatName: "", duration: total > 0 ? total : .infinity, startTime: 0, video: nil, audio: nil),
                range: range)
        }
        let end = range?.end ?? .infinity
        let decoder = try StreamDecoder(input: input, streamIndex: index, threads: 0)
        // Seek only where timestamps resolve single samples (MP4/MOV/M4A, MP3, Ogg, WAV). Matroska/WebM
        // store milliseconds, so a frame placed by its timestamp after a seek could be off by up to
        // half a tick (measured: 1 ms for Opus/WebM); there we decode from the start and count samples.
        let streamRate = Double(decoder.stream.pointee.codecpar.pointee.sample_rate)
        if start > 0, streamRate > 0, decoder.timeBase <= 1.0 / streamRate + 1e-12,
           !decoder.seek(to: max(0, start - seekPreroll)) {
            decoder.rewind()
        }

        // Unsignalled priming (AAC in Matroska) is handled by the origin: those samples get negative
        // times and are dropped like any pre-roll.
        let span = (end.isFinite ? end : total) - start
        // Room for the whole span up front: growing a 10-minute track by doubling copied it about twice
        // over and page-faulted every new block (a fifth of `contacts` on a 48 kHz file).
        var sink = PCMSink(rate: sampleRate, start: start, end: end, expectedSeconds: span)
        var resampler: Resampler?
        var expectedNext: Double?      // media time where the next decoded frame should start
        var lastReport = -1.0

        while try decoder.next() {
            let f = decoder.frame.pointer
            let inRate = Int(f.pointee.sample_rate)
            guard inRate > 0, f.pointee.nb_samples > 0 else { continue }
            let t = decoder.frameTime ?? expectedNext ?? 0
            let active: Resampler
            if let r = resampler, r.matches(f) {
                active = r
                if let e = expectedNext, t - e > gapTolerance { sink.appendSilence(seconds: t - e) }
            } else {
                if let old = resampler { sink.append(try old.flush()) }
                active = try Resampler(like: f, outRate: sampleRate)
                resampler = active
            }
            sink.placeIfNeeded(at: t)
            sink.append(try active.convert(f))
            expectedNext = t + Double(f.pointee.nb_samples) / Double(inRate)
            if let progress, span > 0, t - lastReport > 1 {
                lastReport = t
                progress("audio", min(1, max(0, (t - start) / span)))
            }
            if sink.isFull { break }
        }
        if let r = resampler, !sink.isFull { sink.append(try r.flush()) }
        if !sink.hasSamples && range != nil {
            throw MediaError(.invalidTimeRange, "The selected range contains no audio in \(path).")
        }
        if !sink.hasSamples && decoder.badPackets > 0 {
            throw MediaError(.unreadable, "\(path) has an audio track that could not be decoded.")
        }
        progress?("audio", 1)
        return sink.result()
    }
}

/// Collects resampled samples, dropping those before `start` and after `end` as they arrive
/// (so a trimmed extraction never holds audio outside its range).
struct PCMSink {
    let rate: Int
    let start: Double
    let end: Double
    /// Media time of the first resampled sample seen (before any dropping).
    private(set) var origin: Double?
    private var seen = 0        // resampled samples produced so far (including dropped ones)
    private var dropFront = 0   // samples to drop from the front
    private var keepLimit = Int.max
    private var samples: [Float] = []

    /// The most samples reserved ahead (256 MB of Float32: ten minutes at 96 kHz fit).
    static let maxReserved = 1 << 26

    /// - Parameter expectedSeconds: How long the container says the part is; room for that many samples
    ///   (plus a second) is reserved, up to ``maxReserved``.
    init(rate: Int, start: Double, end: Double, expectedSeconds: Double = 0) {
        self.rate = rate; self.start = max(0, start); self.end = end
        if expectedSeconds.isFinite, expectedSeconds > 0 {
            samples.reserveCapacity(min(Int((expectedSeconds + 1) * Double(rate)), Self.maxReserved))
        }
    }

    mutating func placeIfNeeded(at time: Double) {
        guard origin == nil else { return }
        origin = time
        dropFront = max(0, Int(((start - time) * Double(rate)).rounded()))
        if end.isFinite {
            keepLimit = max(0, Int(((end - time) * Double(rate)).rounded()) - dropFront)
            samples.reserveCapacity(min(keepLimit, Self.maxReserved))
        }
    }

    var isFull: Bool { samples.count >= keepLimit }
    var hasSamples: Bool { !samples.isEmpty }

    mutating func append(_ chunk: [Float]) {
        var slice = chunk[...]
        if seen < dropFront { slice = slice.dropFirst(dropFront - seen) }
        seen += chunk.count
        let room = keepLimit - samples.count
        if room <= 0 { return }
        samples.append(contentsOf: slice.prefix(room))
    }

    mutating func appendSilence(seconds: Double) {
        append([Float](repeating: 0, count: Int((seconds * Double(rate)).rounded())))
    }

    func result() -> AudioPCM {
        let t0 = (origin ?? start) + Double(dropFront) / Double(rate)
        return AudioPCM(samples: samples, sampleRate: rate, startTime: origin == nil ? start : t0)
    }
}
