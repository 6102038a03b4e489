import Foundation
import SwingCore

/// A session's pose as the files OpenSim and its companions (Pose2Sim, Sports2D, OpenCap) read: the 33 world
/// landmarks of every posed frame as a TRC marker file, and the body measures (``BodyMeasure``) over time
/// as a MOT motion file (docs/analysis.md, "Exports for OpenSim").
///
/// Axes: OpenSim's, for a player filmed from behind (the filming guide): X forward (away from the camera),
/// Y up, Z to the right — from BlazePose's world axes (x right, y down, z away from the camera) by
/// X = z, Y = −y, Z = x, a rotation (no mirror). Metres. BlazePose's world landmarks are centred on the hips
/// in every frame, so the markers show the body's shape and turn, not its travel across the court.
package enum OpenSimExport {
    /// The TRC marker file of `track`'s posed frames (frames without a person are left out; each row keeps
    /// its own time, so gaps between swing windows stay gaps). `rate` is the video's frame rate, written as
    /// the file's data and camera rate; `name` is the file name written on its first line; `during`, when
    /// given, keeps only the frames whose time is inside it (one shot's swing). `nil` when no frame kept has
    /// a person: OpenSim's TRC reader never returns from a file without frames.
    package static func trc(_ track: PoseTrack, rate: Double, name: String, during: ClosedRange<Double>? = nil) -> String? {
        let posed = samples(track, during).filter { $0.world.count == BodyLandmark.count }
        guard !posed.isEmpty else { return nil }
        let markers = BodyLandmark.allCases
        let r = String(format: "%.6g", rate > 0 && rate.isFinite ? rate : 30)
        var out = "PathFileType\t4\t(X/Y/Z)\t\(name)\n"
        out += "DataRate\tCameraRate\tNumFrames\tNumMarkers\tUnits\tOrigDataRate\tOrigDataStartFrame\tOrigNumFrames\n"
        out += "\(r)\t\(r)\t\(posed.count)\t\(markers.count)\tm\t\(r)\t1\t\(posed.count)\n"
        out += "Frame#\tTime\t" + markers.map(\.name).joined(separator: "\t\t\t") + "\n"
        out += "\t\t" + markers.indices.map { "X\($0 + 1)\tY\($0 + 1)\tZ\($0 + 1)" }.joined(separator: "\t") + "\n"
        out += "\n"
        for (i, s) in posed.enumerated() {
            var row = ["\(i + 1)", String(format: "%.6f", s.time)]
            for p in s.world {
                row += [String(format: "%.6f", p.z), String(format: "%.6f", -p.y), String(format: "%.6f", p.x)]
            }
            out += row.joined(separator: "\t") + "\n"
        }
        return out
    }

    /// The MOT motion file of the body measures of `track`'s posed frames for a `hand`-handed player: one
    /// column per ``BodyMeasure`` (degrees; the stance in shoulder widths), a frame where a measure could not
    /// be taken reads `nan`. `name` is written on its first line; `during` keeps only the frames inside it.
    /// `nil` when no frame kept has a person, like ``trc(_:rate:name:during:)``.
    package static func mot(_ track: PoseTrack, hand: Hand, name: String, during: ClosedRange<Double>? = nil) -> String? {
        let rows: [(Double, BodyAngles)] = samples(track, during).compactMap { s in
            BodyFrame(world: s.world, hand: hand).map { (s.time, BodyAngles(world: s.world, frame: $0, hand: hand)) }
        }
        guard !rows.isEmpty else { return nil }
        let measures = BodyMeasure.allCases
        var out = "\(name)\nversion=1\nnRows=\(rows.count)\nnColumns=\(measures.count + 1)\ninDegrees=yes\nendheader\n"
        out += "time\t" + measures.map(\.rawValue).joined(separator: "\t") + "\n"
        for (time, angles) in rows {
            out += String(format: "%.6f", time) + "\t"
                + measures.map { angles[$0].map { String(format: "%.6f", $0) } ?? "nan" }.joined(separator: "\t") + "\n"
        }
        return out
    }

    private static func samples(_ track: PoseTrack, _ during: ClosedRange<Double>?) -> [PoseSample] {
        guard let during else { return track.samples }
        return track.samples.filter { during.contains($0.time) }
    }
}
