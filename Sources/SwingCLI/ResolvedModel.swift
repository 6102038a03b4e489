import Foundation
import SwingCore
import SwingStore
import SwingVision

/// A model named on the command line (`detect --model X`, `analyze --detector X`), resolved once for
/// both commands: the file to load, the catalog entry, and that model's stored preferences.
///
/// X is a file path if such a file exists, else a catalog model id, else an error (exit 21) that says how
/// to list the ids. Only catalog models have preferences (`models set`) and usage records; a plain file
/// outside the catalog stores nothing.
struct ResolvedModel {
    var reference: ModelReference
    /// The stored record of a catalog model (`nil` for plain files and never-configured models).
    var record: ModelRecord?

    /// The catalog id, when the model is in the catalog.
    var catalogId: String? { reference.catalogModel?.id }
    /// How reports name the model: the catalog id, else the file name.
    var displayName: String { catalogId ?? URL(fileURLWithPath: reference.path).lastPathComponent }

    /// Resolves `argument` and reads the model's preferences.
    /// - Parameters:
    ///   - argument: a path or a catalog id.
    ///   - db: the database the run stores into; with `nil` (`--no-store`) preferences are still read
    ///     from an existing database, which is never created for that.
    /// - Throws: `CatalogError.unresolvedModel` (exit 21), `StoreError` when the database cannot be read.
    static func resolve(_ argument: String, db: AppDatabase?) throws -> ResolvedModel {
        try ResolvedModel(reference: ModelCatalog().resolve(argument), db: db)
    }

    /// Resolves `argument` and opens the database only if the run will be recorded (a catalog model and
    /// `store`), so plain files never touch it.
    /// - Returns: the model and the database to record into (`nil` when nothing will be stored).
    static func resolveOpeningStore(_ argument: String, store: Bool) throws -> (model: ResolvedModel, db: AppDatabase?) {
        let reference = try ModelCatalog().resolve(argument)
        let db = store && reference.catalogModel != nil ? try AppDatabase.open() : nil
        return (try ResolvedModel(reference: reference, db: db), db)
    }

    private init(reference: ModelReference, db: AppDatabase?) throws {
        self.reference = reference
        guard let id = reference.catalogModel?.id else { record = nil; return }
        record = try (db ?? Self.existingDatabase())?.modelRecord(id: id)
    }

    /// The database in `$SWINGMASTER_HOME` if it already exists (read preferences without creating one).
    private static func existingDatabase() throws -> AppDatabase? {
        let file = SwingmasterHome.url().appendingPathComponent(AppDatabase.fileName)
        return FileManager.default.fileExists(atPath: file.path) ? try AppDatabase.open() : nil
    }

    /// The confidence threshold: the flag, else the model's `models set --conf`, else `fallback`.
    func conf(_ flag: Double?, fallback: Double = PredictionOptions().conf) -> Double {
        flag ?? record?.confThreshold ?? fallback
    }

    /// The NMS IoU threshold: the flag, else the model's `models set --iou`, else `fallback`.
    func iou(_ flag: Double?, fallback: Double = PredictionOptions().iou) -> Double {
        flag ?? record?.iouThreshold ?? fallback
    }

    /// The interpreter configuration: the flag's JSON, else the model's `models set --interpreter-config`.
    func interpreterConfig(_ flag: String?) -> Data? {
        (flag ?? record?.interpreterConfigJSON).map { Data($0.utf8) }
    }

    /// Counts a successful run of a catalog model (usage count + 1, last used) and saves its detection
    /// session. Does nothing for plain files or without a database (`--no-store`).
    /// - Throws: `StoreError` when the database cannot be written.
    func recordUse(_ run: DetectionRunStats, in db: AppDatabase?) throws {
        guard let db, let id = catalogId else { return }
        try db.recordModelUse(id: id, at: run.endedAt)
        try db.saveDetectionSession(DetectionSessionRecord(
            modelId: id, startedAt: run.startedAt, endedAt: run.endedAt, frameCount: run.frames,
            detectionCount: run.detections, averageInferenceMs: run.averageInferenceMs))
    }
}

/// What one run of a model did, for its detection session record.
struct DetectionRunStats {
    var startedAt: Date
    var endedAt: Date
    /// Frames (or images) run through the model.
    var frames: Int
    var detections: Int
    /// Mean model inference time per frame, ms.
    var averageInferenceMs: Double
}
