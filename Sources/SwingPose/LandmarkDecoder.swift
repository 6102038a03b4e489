import Foundation
import SwingCore

/// Landmarks in the landmark model's own crop, before projection to the image.
struct RawLandmarks: Sendable {
    /// 39 × (x, y) in [0, 1] of the crop, z in crop-width units, visibility, presence (probabilities).
    var x: [Double], y: [Double], z: [Double], visibility: [Double], presence: [Double]
    /// 33 world landmarks in metres (unrotated).
    var world: [Vec3]
}

/// Decodes `pose_landmark_full` outputs like MediaPipe's `TensorsToLandmarksCalculator`
/// (39 × 5 values, sigmoid on visibility and presence) and `RefineLandmarksFromHeatmapCalculator`.
enum LandmarkDecoder {
    static let inputSize = 256
    static let modelLandmarks = 39
    static let bodyLandmarks = BodyLandmark.count
    static let heatmapSize = 64

    @inline(__always) static func sigmoid(_ v: Double) -> Double { 1 / (1 + exp(-v)) }

    /// - Parameters:
    ///   - landmarks: 195 values (39 × x, y, z, visibility logit, presence logit; 256-pixel units).
    ///   - world: 117 values (39 × x, y, z metres).
    ///   - heatmap: 64 × 64 × 39 logits (HWC), or `nil` to skip refinement.
    static func decode(landmarks: [Float], world: [Float], heatmap: [Float]?, options: PoseOptions) -> RawLandmarks? {
        let n = modelLandmarks
        guard landmarks.count >= n * 5, world.count >= bodyLandmarks * 3 else { return nil }
        let size = Double(inputSize)
        var r = RawLandmarks(x: [], y: [], z: [], visibility: [], presence: [], world: [])
        r.x.reserveCapacity(n); r.y.reserveCapacity(n); r.z.reserveCapacity(n)
        for i in 0..<n {
            r.x.append(Double(landmarks[i * 5]) / size)
            r.y.append(Double(landmarks[i * 5 + 1]) / size)
            r.z.append(Double(landmarks[i * 5 + 2]) / size)
            r.visibility.append(sigmoid(Double(landmarks[i * 5 + 3])))
            r.presence.append(sigmoid(Double(landmarks[i * 5 + 4])))
        }
        if options.refineWithHeatmap, let hm = heatmap, hm.count >= heatmapSize * heatmapSize * n {
            refine(&r, heatmap: hm, kernel: options.heatmapKernelSize, minConfidence: options.minHeatmapConfidence)
        }
        r.world = (0..<bodyLandmarks).map {
            Vec3(x: Double(world[$0 * 3]), y: Double(world[$0 * 3 + 1]), z: Double(world[$0 * 3 + 2]))
        }
        return r
    }

    /// Moves each landmark to the sigmoid-weighted mean position of the heatmap window around it,
    /// when the window's peak confidence reaches `minConfidence`. Like MediaPipe, positions are
    /// cell indices divided by 64 (no half-cell offset) and the window shrinks at the edges.
    static func refine(_ r: inout RawLandmarks, heatmap: [Float], kernel: Int, minConfidence: Double) {
        let side = heatmapSize, channels = modelLandmarks
        let offset = (max(kernel, 1) - 1) / 2
        heatmap.withUnsafeBufferPointer { hm in
            for l in 0..<channels {
                // C++ truncates toward zero, so points up to one cell left/above the map still count.
                let fx = r.x[l] * Double(side), fy = r.y[l] * Double(side)
                guard fx > -1, fx < Double(side), fy > -1, fy < Double(side) else { continue }
                let cc = Int(fx.rounded(.towardZero)), cr = Int(fy.rounded(.towardZero))
                var sum = 0.0, wc = 0.0, wr = 0.0, peak = 0.0
                for row in max(0, cr - offset)..<min(side, cr + offset + 1) {
                    for col in max(0, cc - offset)..<min(side, cc + offset + 1) {
                        let conf = sigmoid(Double(hm[(row * side + col) * channels + l]))
                        sum += conf; peak = max(peak, conf)
                        wc += Double(col) * conf; wr += Double(row) * conf
                    }
                }
                if peak >= minConfidence && sum > 0 {
                    r.x[l] = wc / Double(side) / sum
                    r.y[l] = wr / Double(side) / sum
                }
            }
        }
    }
}
