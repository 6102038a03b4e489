import SwingBiomech
import SwingCore
import SwingMedia

/// Writes the annotated session video: the 17-joint skeleton of the shot view in every posed swing-window
/// frame, the dominant wrist's arc growing through the swing, and each contact frame outlined
/// (`analyze --save-video`, the web app's "annotated video" download). Every frame keeps its own
/// timestamp, so a phone video whose rate dropped or stretched plays as the original did, and the
/// outlined frame is the one shown at the contact.
///
/// It draws from the one session document and the shot view's frames — what the store keeps — so the CLI
/// right after an analysis and the server months later draw the same picture.
package enum SessionOverlay {
    /// Colour of the wrist arc, of the contact-frame border, and of the bones.
    package static let arcColor = RGB.yellow
    package static let contactColor = RGB.red
    package static let boneColor = RGB.white
    /// Joints less visible than this are not drawn (as `PoseDrawing`).
    package static let minVisibility = 0.5

    /// Re-encodes the analysed part of `source` with the overlay drawn.
    /// - Parameters:
    ///   - document: The session document (display size, analysed range, shots).
    ///   - shotFrames: Each shot's posed frames, in the order of `document.session.shots` (image points in
    ///     display pixels; ``SessionAnalysis/shotFrames(hand:)`` or ``SessionArchive/shotFrames(id:in:)``).
    ///   - source: The analysed video file.
    ///   - output: The MP4 to write.
    ///   - maxSide: The output's longer side at most this many pixels (`nil` = the display size).
    ///   - progress: Called with `("writing video", 0…1)` as frames are written.
    /// - Throws: `MediaError` when the source cannot be decoded or the output cannot be written,
    ///   `PipelineError.cancelled` when the task is cancelled.
    package static func write(_ document: SessionDocument, shotFrames: [[ShotFrame]], source: String, to output: String,
                             maxSide: Int?, progress: ProgressHandler? = nil) throws {
        let s = document.session
        var display = (width: s.width, height: s.height)
        if display.width <= 0 || display.height <= 0 {
            // Sessions stored before the display size was kept: ask the file.
            display = try VideoFrameReader(path: source).outputSize
        }
        let timeline = try FrameTimeline(path: source)
        let reader = try VideoFrameReader(path: source, targetSize: SessionAnalyzer.poseSize(display, maxSide: maxSide),
                                          timeline: timeline)
        let size = reader.outputSize
        let writer = try VideoWriter(path: output, width: size.width, height: size.height, fps: s.fps > 0 ? s.fps : 30,
                                     frameTimes: true)
        let scale = (x: Double(size.width) / Double(display.width), y: Double(size.height) / Double(display.height))
        let layers = Layers(document, shotFrames: shotFrames)
        let start = s.start ?? 0, end = start + s.duration
        let thickness = max(2, min(size.width, size.height) / 240)
        let outerStep = max(1, s.pose?.outerStep ?? 1)
        // Away from contacts only every outerStep-th frame has a pose; the frames between show the
        // latest one, so the skeleton doesn't blink.
        var held: ShotFrame?
        var lastFrame: Int?
        try reader.frames(from: start, to: end) { frame in
            if Cancellation.isRequested { return false }
            var image = frame.image
            if let pose = layers.posed[frame.index] {
                held = pose
            } else if let h = held, let at = h.videoFrame, frame.index - at >= outerStep {
                held = nil
            }
            if let points = held?.image { drawSkeleton(points, scale: scale, thickness: thickness, on: &image) }
            if let arc = layers.arc(at: frame.time) {
                image.drawPolyline(arc.map { Point2(x: $0.x * scale.x, y: $0.y * scale.y) }, thickness: thickness, color: arcColor)
            }
            if layers.contactFrames.contains(frame.index) {
                image.strokeRect(Rect(x1: 0, y1: 0, x2: Double(size.width - 1), y2: Double(size.height - 1)),
                                 thickness: thickness * 3, color: contactColor)
            }
            try writer.append(image, at: frame.time - start)
            lastFrame = frame.index
            progress?("writing video", min(1, (frame.time - start) / max(end - start, 1e-9)))
            return true
        }
        try writer.finish(end: lastFrame.map { timeline.endOfFrame($0) - start })
        if Cancellation.isRequested { throw PipelineError.cancelled("Video export", nothing: "written") }
    }

    /// What is drawn where: the posed frames by video frame, each shot's window and arc, the contact frames.
    struct Layers {
        var posed: [Int: ShotFrame] = [:]
        /// Shots with a person: their window (first…last posed time) and arc points `(x, y, time)`.
        var windows: [(range: ClosedRange<Double>, arc: [ImageArcPoint])] = []
        var contactFrames = Set<Int>()

        init(_ document: SessionDocument, shotFrames: [[ShotFrame]]) {
            for (shot, frames) in zip(document.session.shots, shotFrames) {
                for f in frames { if let v = f.videoFrame, f.image != nil { posed[v] = posed[v] ?? f } }
                guard shot.status == .ok else { continue }
                if let v = shot.contactVideoFrame { contactFrames.insert(v) }
                let times = frames.map(\.time)
                guard let first = times.min(), let last = times.max() else { continue }
                windows.append((first...last, shot.arc?.image ?? []))
            }
        }

        /// The arc up to `time` of the shot whose window holds `time` (`nil` outside every window).
        func arc(at time: Double) -> [ImageArcPoint]? {
            guard let w = windows.first(where: { $0.range.contains(time) }) else { return nil }
            let upToNow = w.arc.filter { $0.time <= time + 1e-6 }
            return upToNow.count > 1 ? upToNow : nil
        }
    }

    /// Draws the 17-joint skeleton (rows `[x, y, visibility]` in display pixels) scaled to the output.
    static func drawSkeleton(_ points: [[Double]], scale: (x: Double, y: Double), thickness: Int, on image: inout ImageBuffer) {
        let joints = SkeletonJoints.landmarks
        guard points.count == joints.count, points.allSatisfy({ $0.count >= 3 }) else { return }
        func visible(_ i: Int) -> Bool { points[i][2] >= minVisibility }
        func at(_ i: Int) -> Point2 { Point2(x: points[i][0] * scale.x, y: points[i][1] * scale.y) }
        for bone in SkeletonJoints.bones where bone.count == 2 && visible(bone[0]) && visible(bone[1]) {
            image.drawLine(from: at(bone[0]), to: at(bone[1]), thickness: thickness, color: boneColor)
        }
        for i in points.indices where visible(i) {
            let left = joints[i].isLeft
            let p = at(i)
            image.fillCircle(x: p.x, y: p.y, radius: thickness * 2, color: left ? .green : .red)
        }
    }
}
