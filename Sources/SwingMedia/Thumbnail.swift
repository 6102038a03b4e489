import Foundation
import SwingCore

/// A small upright JPEG of one moment of a video, for lists of sessions.
package enum Thumbnail {
    /// Writes the frame at `time` (seconds; the nearest frame at or after it, else the first) of
    /// `video`, scaled so its longer side is `maxSide`, as JPEG at `destination` — through a temporary
    /// file renamed into place, so a reader never sees half a picture.
    /// - Throws: ``MediaError`` for an unreadable video or an unwritable destination.
    package static func make(from video: String, at time: Double, maxSide: Int = 320, to destination: String) throws {
        let info = try MediaProbe.probe(video)
        guard let stream = info.video else { throw MediaError(.noVideoTrack, "\(video) has no video to take a picture from.") }
        let (w, h) = stream.displaySize
        let scale = min(1, Double(maxSide) / Double(max(w, h, 1)))
        let size = (max(2, Int((Double(w) * scale).rounded())), max(2, Int((Double(h) * scale).rounded())))
        var picture: ImageBuffer?
        let at = time.isFinite ? max(0, time) : 0
        try VideoFrameReader(path: video, targetSize: size).frames(from: at, to: at + 2) { frame in
            picture = frame.image
            return false
        }
        if picture == nil {
            let reader = try VideoFrameReader(path: video, targetSize: size)
            picture = try reader.nextFrame()?.image
        }
        guard let picture else { throw MediaError(.unreadable, "\(video) has no picture to show.") }
        let temporary = destination + ".part-\(UUID().uuidString.prefix(8)).jpg"
        do {
            try ImageIO.save(picture, to: temporary)
            if rename(temporary, destination) != 0 {
                throw MediaError(.encodeFailed, "Cannot store the picture at \(destination).")
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }
}
