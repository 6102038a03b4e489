import Foundation
import SwingCore

/// Finds the directory holding the BlazePose ONNX files.
package enum PoseModels {
    /// Detector file name inside the models directory.
    package static let detectorFile = "pose_detection.onnx"
    /// Landmark model file name inside the models directory.
    package static let landmarkFile = "pose_landmark_full.onnx"

    /// The models directory: the first folder `SWINGMASTER_MODELS` names (one, or several separated by `:`,
    /// as for the model catalog) that holds both files, else the first `Models/` holding both found walking
    /// up from the executable's directory, then from the current directory.
    package static func defaultDirectory() -> URL? {
        ResourceLocator.folder("Models", variable: "SWINGMASTER_MODELS", accept: contains)
    }

    /// The folder to load the models from: `modelsDirectory`, else ``defaultDirectory()``.
    /// - Throws: ``PoseError`` (`modelsUnavailable`) when no folder is found or it lacks either model file.
    package static func directory(_ modelsDirectory: URL? = nil) throws -> URL {
        guard let dir = modelsDirectory ?? defaultDirectory() else {
            throw PoseError(.modelsUnavailable,
                            "BlazePose models not found: set SWINGMASTER_MODELS to the folder with \(landmarkFile).")
        }
        guard contains(dir) else {
            throw PoseError(.modelsUnavailable,
                            "BlazePose models not found in \(dir.path) (need \(detectorFile) and \(landmarkFile)).")
        }
        return dir
    }

    static func contains(_ dir: URL) -> Bool {
        let fm = FileManager.default
        return fm.fileExists(atPath: dir.appendingPathComponent(detectorFile).path)
            && fm.fileExists(atPath: dir.appendingPathComponent(landmarkFile).path)
    }
}
