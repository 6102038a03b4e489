import Foundation
import SwingBiomech
import SwingCore
import SwingMedia

/// The highlights of a session: each shot's swing, from its preparation to its follow-through, cut from the
/// video and joined in order, shots closer together than a few seconds kept as one rally, with a chapter
/// mark at every shot named by its number and stroke (`analyze --save-highlights`, `sessions export
/// --highlights`, the results page's "Highlights" download). Contacts that are not shots are left out.
///
/// Frames keep their own durations (a phone's dropped and stretched frames stay as they were); the joins
/// close each clip's gap, so the reel is as long as its clips. The sound of each clip is copied in as it was
/// recorded (not re-encoded), when the container can hold it.
package enum SessionHighlights {
    /// Seconds of each shot kept before its instant (the preparation) and after it (the follow-through).
    package static let before = 1.5
    package static let after = 1.0
    /// Two shots' clips closer than this (seconds between one's end and the next one's start) are one rally.
    package static let rallyGap = 2.0

    /// One stretch of the source in the reel.
    package struct Clip: Sendable, Equatable {
        /// Media time of the source, seconds.
        package var start: Double
        package var end: Double
        /// Positions in the session's `shots` of the shots it holds, in order.
        package var shots: [Int]
    }

    /// The clips of `document`'s shots within its analysed range, rallies merged; empty without shots.
    package static func clips(_ document: SessionDocument) -> [Clip] {
        let s = document.session
        let from = s.start ?? 0, to = from + s.duration
        var clips: [Clip] = []
        for (i, shot) in s.shots.enumerated().sorted(by: { $0.element.contactTime < $1.element.contactTime }) {
            let start = max(from, shot.contactTime - before), end = min(to, shot.contactTime + after)
            guard end > start else { continue }
            if let last = clips.last, start - last.end < rallyGap {
                clips[clips.count - 1].end = max(last.end, end)
                clips[clips.count - 1].shots.append(i)
            } else {
                clips.append(Clip(start: start, end: end, shots: [i]))
            }
        }
        return clips
    }

    /// What was written: the reel's length, its clips and its chapters.
    package struct Reel: Sendable, Equatable {
        package var seconds: Double
        package var clips: [Clip]
        package var chapters: [VideoChapter]
        /// Whether the reel has the session's sound.
        package var hasSound: Bool
    }

    /// Writes the highlights of `document` from `source` to `output` (H.264 MP4).
    /// - Parameters:
    ///   - shotFrames: Each shot's posed frames (as for ``SessionOverlay``), used when `overlay` is on.
    ///   - maxSide: The output's longer side at most this many pixels (`nil` = the display size).
    ///   - overlay: Draw the skeleton and the wrist's arc, as the annotated video does.
    ///   - progress: Called with `("writing highlights", 0…1)`.
    /// - Throws: `PipelineError.noContacts` when the session has no shot to cut, `MediaError` when the source
    ///   cannot be read or the output written, `PipelineError.cancelled` when the task is cancelled. The
    ///   caller writes to a temporary file it removes on failure (``SessionOverlay`` does the same).
    @discardableResult
    package static func write(_ document: SessionDocument, shotFrames: [[ShotFrame]], source: String, to output: String,
                             maxSide: Int?, overlay: Bool = false, progress: ProgressHandler? = nil) throws -> Reel {
        let s = document.session
        let clips = clips(document)
        guard !clips.isEmpty else {
            throw PipelineError(.noContacts, "The session has no shot, so there are no highlights to cut.")
        }
        var display = (width: s.width, height: s.height)
        if display.width <= 0 || display.height <= 0 { display = try VideoFrameReader(path: source).outputSize }
        let timeline = try FrameTimeline(path: source)
        // Each clip's frames and where they land in the reel: a frame keeps its own duration, and the next
        // clip starts where this one's last frame stops being shown.
        var placed: [(clip: Clip, first: Double, offset: Double, length: Double)] = []
        var offset = 0.0
        for clip in clips {
            let frames = timeline.times.indices.filter { timeline.times[$0] >= clip.start - 1e-6 && timeline.times[$0] <= clip.end + 1e-6 }
            guard let a = frames.first, let b = frames.last else { continue }
            let length = timeline.endOfFrame(b) - timeline.times[a]
            placed.append((clip, timeline.times[a], offset, length))
            offset += length
        }
        guard !placed.isEmpty else {
            throw PipelineError(.noContacts, "No frame of the video lies around the session's shots, so there are no highlights to cut.")
        }
        let total = offset
        var chapters: [VideoChapter] = []
        for (clip, first, offset, _) in placed {
            for i in clip.shots {
                let shot = s.shots[i]
                let start = offset + max(0, shot.contactTime - before - first)
                let title = "Shot \(shot.index)" + (shot.stroke.map { " · \(Vocabulary.name(of: $0))" } ?? "")
                if let last = chapters.indices.last { chapters[last].end = start }
                chapters.append(VideoChapter(title: title, start: start, end: total))
            }
        }
        let reader = try VideoFrameReader(path: source, targetSize: SessionAnalyzer.poseSize(display, maxSide: maxSide),
                                          timeline: timeline)
        let size = reader.outputSize
        let writer = try VideoWriter(path: output, width: size.width, height: size.height, fps: s.fps > 0 ? s.fps : 30,
                                     faststart: true, frameTimes: true, chapters: chapters, audioFrom: source)
        let layers = SessionOverlay.Layers(document, shotFrames: shotFrames)
        let scale = (x: Double(size.width) / Double(display.width), y: Double(size.height) / Double(display.height))
        let thickness = max(2, min(size.width, size.height) / 240)
        var written = 0.0
        for (clip, first, offset, length) in placed {
            try reader.frames(from: clip.start, to: clip.end) { frame in
                if Cancellation.isRequested { return false }
                var image = frame.image
                if overlay {
                    if let points = layers.posed[frame.index]?.image {
                        SessionOverlay.drawSkeleton(points, scale: scale, thickness: thickness, on: &image)
                    }
                    if let arc = layers.arc(at: frame.time) {
                        image.drawPolyline(arc.map { Point2(x: $0.x * scale.x, y: $0.y * scale.y) }, thickness: thickness,
                                           color: SessionOverlay.arcColor)
                    }
                }
                try writer.append(image, at: offset + frame.time - first)
                written = offset + frame.time - first
                progress?("writing highlights", min(1, written / max(total, 1e-9)))
                return true
            }
            if Cancellation.isRequested { throw PipelineError.cancelled("Highlights", nothing: "written") }
            // The clip's sound, as heard: the hit is in it.
            try writer.appendAudio(from: first, to: first + length, at: offset)
        }
        try writer.finish(end: total)
        return Reel(seconds: total, clips: placed.map(\.clip), chapters: chapters, hasSound: writer.hasAudio)
    }
}
