import Foundation

/// One model in the catalog, as `models list` / `models info` show it.
package struct CatalogModel: Sendable, Codable, Equatable {
    /// Where the model came from.
    package enum Source: String, Sendable, Codable {
        /// Shipped in a `Models/` directory next to the package or executable (read-only).
        case bundled
        /// Added from a file with `models add`.
        case local
        /// Downloaded from a URL with `models download`.
        case remote
    }

    /// Stable id: the file name without extension, lower-cased, other characters than `a-z0-9._-` → `-`.
    package var id: String
    /// Display name (Ultralytics `description` metadata, else the file name).
    package var name: String
    package var source: Source
    /// The URL a remote model was downloaded from.
    package var url: String?
    /// Absolute path of the `.onnx` file.
    package var path: String
    /// `detect`, `segment`, `classify`, `pose`, `obb`, or `nil` when the metadata does not say.
    package var task: String?
    /// Input `[height, width]` (from `imgsz` metadata, else the graph input), `nil` if dynamic.
    package var inputSize: [Int]?
    /// Class labels in id order (from the `names` metadata).
    package var labels: [String]
    package var typeHint: ModelTypeHint
    /// File size in bytes.
    package var sizeBytes: Int64
    /// SHA-256 recorded at download time (`nil` for bundled/local models).
    package var sha256: String?
    /// When a remote model was downloaded.
    package var downloadedAt: Date?
    /// Why the entry cannot be used (an unreadable or damaged file); `nil` when it can. A damaged
    /// entry is still listed, so the user can see and remove it.
    package var problem: String? = nil

    /// What family of model the file is.
    package enum Kind: String, Sendable, Codable {
        /// An Ultralytics YOLO export (its metadata names the task or the classes): runs in `detect` and the studio.
        case yolo
        /// MediaPipe BlazePose's person detector or landmark model, as the session analysis uses them.
        case blazepose
        /// A file that is not usable as a model (see ``problem``) or an ONNX graph of no known family.
        case unknown
    }

    /// What family of model the file is: YOLO by its Ultralytics metadata, BlazePose by the names the
    /// pose models ship under (`pose_detection`, `pose_landmark_*`, no Ultralytics metadata).
    package var kind: Kind {
        if problem != nil { return .unknown }
        if task != nil || !labels.isEmpty { return .yolo }
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent.lowercased()
        return stem == "pose_detection" || stem.hasPrefix("pose_landmark") ? .blazepose : .unknown
    }

    /// What `models list` and the studio call the task: the YOLO task, `pose (BlazePose)`, or `unknown`.
    package var taskDescription: String { Self.taskDescription(kind: kind, task: task) }

    /// ``taskDescription`` of a model of `kind` and YOLO `task`.
    package static func taskDescription(kind: Kind, task: String?) -> String {
        switch kind {
        case .yolo: task ?? "unknown"
        case .blazepose: "pose (BlazePose)"
        case .unknown: "unknown"
        }
    }
}

/// What the catalog remembers about an installed model next to it (`<id>.json`).
struct ModelSidecar: Codable, Equatable {
    var source: CatalogModel.Source
    var url: String?
    var sha256: String?
    var downloadedAt: Date?
    var originalName: String?
}

/// Per-model user preferences, as the store keeps them; used to order `models list`.
package struct ModelPreferences: Sendable, Equatable {
    package var isFavorite: Bool
    package var isHidden: Bool
    package var lastUsedAt: Date?
    package var usageCount: Int
    package init(isFavorite: Bool = false, isHidden: Bool = false, lastUsedAt: Date? = nil, usageCount: Int = 0) {
        self.isFavorite = isFavorite; self.isHidden = isHidden; self.lastUsedAt = lastUsedAt; self.usageCount = usageCount
    }

    /// Orders models for listing: favourites first, then most recently used, then by id; hidden models
    /// are dropped unless `includeHidden`.
    /// - Parameters:
    ///   - models: catalog models.
    ///   - preferences: preferences by model id (missing = defaults).
    ///   - includeHidden: keep hidden models (at their place in the order).
    package static func ordered(_ models: [CatalogModel], preferences: [String: ModelPreferences],
                               includeHidden: Bool = false) -> [CatalogModel] {
        let none = ModelPreferences()
        return models.filter { includeHidden || !(preferences[$0.id]?.isHidden ?? false) }.sorted { a, b in
            let pa = preferences[a.id] ?? none, pb = preferences[b.id] ?? none
            if pa.isFavorite != pb.isFavorite { return pa.isFavorite }
            switch (pa.lastUsedAt, pb.lastUsedAt) {
            case let (x?, y?) where x != y: return x > y
            case (_?, nil): return true
            case (nil, _?): return false
            default: return a.id < b.id
            }
        }
    }
}
