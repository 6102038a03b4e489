import SwingBiomech
import SwingCore
import SwingMedia
import SwingPose

/// Writes the session video with the pose skeleton in every swing-window frame, the dominant wrist's
/// arc growing through the swing, and contact frames highlighted (`analyze --save-video`).
public enum SessionOverlay {
    /// Colour of the wrist arc and of the contact-frame border.
    public static let arcColor = RGB.yellow
    public static let contactColor = RGB.red

    /// Re-encodes `source` (the analysed part) at the pose resolution with the overlay drawn.
    /// - Throws: `MediaError` when the source cannot be decoded or the output cannot be written,
    ///   `PipelineError.cancelled` when the task is cancelled.
    public static func write(_ analysis: SessionAnalysis, source: String, to output: String,
                             progress: ProgressHandler? = nil) throws {
        guard let video = analysis.info.video else { return }
        let target = SessionAnalyzer.poseSize(video.displaySize, maxSide: analysis.poseImageSide)
        let reader = try VideoFrameReader(path: source, targetSize: target)
        let size = reader.outputSize
        let writer = try VideoWriter(path: output, width: size.width, height: size.height,
                                     fps: video.frameRate > 0 ? video.frameRate : 30)
        let poses = Dictionary(analysis.frames.compactMap { f in f.pose.map { (f.index, $0) } }, uniquingKeysWith: { a, _ in a })
        let shots = analysis.result.shots.filter { $0.status == .ok }
        let contactFrames = Set(shots.compactMap { shot in
            analysis.frames.min { abs($0.time - shot.contactTime) < abs($1.time - shot.contactTime) }?.index
        })
        let start = analysis.analysedStart, end = analysis.analysedStart + analysis.analysedDuration
        let thickness = max(2, size.height / 240)
        // Away from contacts only every poseOuterStep-th frame has a pose; the frames between show
        // the latest one, so the skeleton doesn't blink.
        var held: PoseFrame?
        try reader.frames(from: start, to: end) { frame in
            if Task.isCancelled { return false }
            var image = frame.image
            if let pose = poses[frame.index] {
                held = pose
            } else if let h = held, frame.index - h.index >= max(1, analysis.poseOuterStep) {
                held = nil
            }
            if let pose = held { image = PoseDrawing.draw(pose, on: image) }
            if let shot = shots.first(where: { frame.time >= $0.contactTime - analysis.windowBefore && frame.time <= $0.contactTime + analysis.windowAfter }),
               let arc = shot.arc?.image {
                let upToNow = arc.filter { $0.time <= frame.time + 1e-6 }.map { Point2(x: $0.x, y: $0.y) }
                image.drawPolyline(upToNow, thickness: thickness, color: arcColor)
            }
            if contactFrames.contains(frame.index) {
                image.strokeRect(Rect(x1: 0, y1: 0, x2: Double(size.width - 1), y2: Double(size.height - 1)),
                                 thickness: thickness * 3, color: contactColor)
            }
            try writer.append(image)
            progress?("writing video", min(1, (frame.time - start) / max(end - start, 1e-9)))
            return true
        }
        try writer.finish()
        if Task.isCancelled { throw PipelineError(.cancelled, "video export cancelled") }
    }
}
