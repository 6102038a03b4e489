import CFFmpeg

/// The presentation time of every frame of a video track, in the order the frames are shown.
///
/// Phones drop and stretch frames (low light, heat), so frame `n` is not shown at `n / fps`: each
/// frame carries its own timestamp. A timeline numbers the frames as a decoder hands them out
/// (0-based, presentation order, the numbering of ffprobe's `-show_frames` and FFmpeg's
/// `select=eq(n\,N)`) and answers which frame is shown at a time, whatever the rate did.
package struct FrameTimeline: Sendable {
    /// Presentation times in seconds of media time (the origin ``VideoFrameReader`` and
    /// ``AudioExtractor`` use), ascending; `times[n]` is frame `n`.
    package let times: [Double]
    /// Where the last frame stops being shown (its time plus its duration), seconds of media time.
    package let end: Double

    /// A timeline from known frame times (sorted here) and the end of the last frame.
    package init(times: [Double], end: Double) {
        self.times = times.sorted()
        self.end = max(end, self.times.last ?? end)
    }

    /// Reads the video track's packet timestamps without decoding a picture (one pass over the file's
    /// bytes; a fraction of what decoding the same file costs).
    /// - Parameter path: A media file with a video track.
    /// - Throws: ``MediaError`` `.fileNotFound`, `.unreadable`, `.noVideoTrack`.
    package init(path: String) throws {
        let input = try InputFile(path: path)
        guard let index = input.videoStreamIndex, let st = input.stream(index) else {
            throw MediaError(.noVideoTrack, "\(path) has no video track; the analysis needs the player on video.")
        }
        try self.init(input: input, streamIndex: index, stream: st)
    }

    init(input: InputFile, streamIndex: Int32, stream st: UnsafeMutablePointer<AVStream>) throws {
        for i in 0..<Int32(input.context.pointee.nb_streams) where i != streamIndex {
            input.stream(i)?.pointee.discard = AVDISCARD_ALL
        }
        let packet = try Packet()
        let timeBase = av_q2d(st.pointee.time_base), origin = input.origin
        let rate = MediaProbe.videoInfo(st).frameRate
        let nominalStep = rate > 0 ? 1 / rate : 0
        var times: [Double] = []
        var end = -Double.infinity
        while av_read_frame(input.context, packet.pointer) >= 0 {
            defer { av_packet_unref(packet.pointer) }
            let p = packet.pointer.pointee
            // Packets the demuxer marks for discarding (edit-list priming) never become frames.
            guard p.stream_index == streamIndex, p.flags & AV_PKT_FLAG_DISCARD == 0 else { continue }
            let ts = p.pts != swm_nopts() ? p.pts : p.dts
            let t = ts != swm_nopts() ? Double(ts) * timeBase - origin : (times.last.map { $0 + nominalStep } ?? 0)
            times.append(t)
            end = max(end, t + (p.duration > 0 ? Double(p.duration) * timeBase : nominalStep))
        }
        // The container's own length when it states one (packet durations are decode-order steps, and
        // some demuxers leave them out).
        let start = st.pointee.start_time, length = st.pointee.duration
        if start != swm_nopts(), length != swm_nopts(), length > 0 {
            end = Double(start + length) * timeBase - origin
        }
        self.init(times: times, end: end.isFinite ? end : 0)
    }

    /// Number of frames.
    package var count: Int { times.count }

    /// The frame whose time is nearest `time` (the earlier on a tie); `nil` for an empty track.
    /// - Complexity: O(log n).
    package func frame(nearest time: Double) -> Int? {
        guard !times.isEmpty else { return nil }
        let after = firstIndex(atOrAfter: time)
        if after == 0 { return 0 }
        if after == times.count { return times.count - 1 }
        return time - times[after - 1] <= times[after] - time ? after - 1 : after
    }

    /// Where frame `n` stops being shown: the next frame's time, or ``end`` for the last frame.
    package func endOfFrame(_ n: Int) -> Double {
        times.indices.contains(n + 1) ? times[n + 1] : end
    }

    /// The first position whose time is ≥ `time` (``count`` when none is), by binary search.
    package func firstIndex(atOrAfter time: Double) -> Int {
        var lo = 0, hi = times.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if times[mid] < time { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
