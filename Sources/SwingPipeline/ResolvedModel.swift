import Foundation
import SwingCore
import SwingStore
import SwingVision

/// A model named by the user (`detect --model X`, `analyze --detector X`, the studio's `model=X`), resolved
/// once for every caller: the file to load, the catalog entry, and that model's stored defaults.
///
/// X is a file path if such a file exists, else a catalog model id, else an error (exit 21) that says how
/// to list the ids. Only catalog models have defaults (`models set`, the studio's model cards) and usage
/// records; a plain file outside the catalog stores nothing.
package struct ResolvedModel: Sendable {
    package var reference: ModelReference
    /// The stored record of a catalog model (`nil` for plain files and never-configured models).
    package var record: ModelRecord?

    /// The catalog id, when the model is in the catalog.
    package var catalogId: String? { reference.catalogModel?.id }
    /// How reports name the model: the catalog id, else the file name.
    package var displayName: String { catalogId ?? URL(fileURLWithPath: reference.path).lastPathComponent }

    /// Resolves `argument` in `catalog` and reads the model's defaults.
    /// - Parameters:
    ///   - argument: a path or a catalog id.
    ///   - db: the database the run stores into; with `nil` (`--no-store`) defaults are still read
    ///     from an existing database in `$SWINGMASTER_HOME`, which is never created for that.
    ///   - catalog: where catalog ids are looked up.
    /// - Throws: `CatalogError.unresolvedModel` (exit 21), `StoreError` when the database cannot be read.
    static func resolve(_ argument: String, db: (any Store)?, catalog: ModelCatalog = ModelCatalog()) async throws -> ResolvedModel {
        try await ResolvedModel(reference: catalog.resolve(argument), db: db)
    }

    /// ``resolve(_:db:catalog:)`` with `library`'s store.
    package static func resolve(_ argument: String, library: MediaLibrary?, catalog: ModelCatalog = ModelCatalog()) async throws -> ResolvedModel {
        try await resolve(argument, db: library?.store, catalog: catalog)
    }

    /// Resolves `argument` and opens the home's database only if the run will be recorded (a catalog model
    /// and `store`), so plain files never touch it.
    /// - Returns: the model and the library to record into (`nil` when nothing will be stored).
    package static func resolveOpeningStore(_ argument: String, store: Bool) async throws -> (model: ResolvedModel, library: MediaLibrary?) {
        let reference = try ModelCatalog().resolve(argument)
        let db: (any Store)? = store && reference.catalogModel != nil ? try AppDatabase.open() : nil
        return (try await ResolvedModel(reference: reference, db: db), db.map { MediaLibrary(directory: MediaLibrary.defaultDirectory(), store: $0) })
    }

    private init(reference: ModelReference, db: (any Store)?) async throws {
        self.reference = reference
        guard let id = reference.catalogModel?.id else { record = nil; return }
        let store: (any Store)? = try db ?? Self.existingDatabase()
        record = try await store?.modelRecord(id: id)
    }

    /// The database in `$SWINGMASTER_HOME` if it already exists (read defaults without creating one).
    private static func existingDatabase() throws -> AppDatabase? {
        let file = SwingmasterHome.url().appendingPathComponent(AppDatabase.fileName)
        return FileManager.default.fileExists(atPath: file.path) ? try AppDatabase.open() : nil
    }

    /// The confidence threshold: the given value, else the model's stored default, else `fallback`.
    package func conf(_ given: Double?, fallback: Double = PredictionOptions().conf) -> Double {
        given ?? record?.confThreshold ?? fallback
    }

    /// The NMS IoU threshold: the given value, else the model's stored default, else `fallback`.
    package func iou(_ given: Double?, fallback: Double = PredictionOptions().iou) -> Double {
        given ?? record?.iouThreshold ?? fallback
    }

    /// The cap on detections per image: the given value, else the model's stored default, else Ultralytics' 300.
    package func maxDet(_ given: Int?) -> Int {
        given ?? record?.maxDetections ?? PredictionOptions().maxDet
    }

    /// The interpreter configuration: the given JSON, else the model's stored configuration.
    package func interpreterConfig(_ given: String?) -> Data? {
        (given ?? record?.interpreterConfigJSON).map { Data($0.utf8) }
    }

    /// Counts a successful run of a catalog model (usage count + 1, last used) and saves its detection
    /// session. Does nothing for plain files or without a database (`--no-store`).
    /// - Throws: `StoreError` when the database cannot be written.
    package func recordUse(_ run: DetectionRunStats, in library: MediaLibrary?) async throws {
        try await recordUse(run, in: library?.store)
    }

    /// ``recordUse(_:in:)`` into `db`.
    func recordUse(_ run: DetectionRunStats, in db: (any Store)?) async throws {
        guard let db, let id = catalogId else { return }
        try await db.recordModelUse(id: id, at: run.endedAt)
        _ = try await db.saveDetectionSession(DetectionSessionRecord(
            modelId: id, startedAt: run.startedAt, endedAt: run.endedAt, frameCount: run.frames,
            detectionCount: run.detections, averageInferenceMs: run.averageInferenceMs,
            source: run.source, interpreter: run.interpreter, summary: run.summary))
    }
}

/// What one run of a model did, for its detection session record.
package struct DetectionRunStats: Sendable, Equatable {
    package var startedAt: Date
    package var endedAt: Date
    /// Frames (or images) run through the model.
    package var frames: Int
    package var detections: Int
    /// Mean model inference time per frame, ms.
    package var averageInferenceMs: Double
    /// What the model ran on (a file name, `image`, `camera`).
    package var source: String?
    /// The interpreter that read the detections.
    package var interpreter: String?
    /// What the interpreter saw, in one line (``InterpreterRunSummary/sentence``).
    package var summary: String?

    package init(startedAt: Date, endedAt: Date, frames: Int, detections: Int, averageInferenceMs: Double,
                source: String? = nil, interpreter: String? = nil, summary: String? = nil) {
        self.startedAt = startedAt; self.endedAt = endedAt; self.frames = frames; self.detections = detections
        self.averageInferenceMs = averageInferenceMs; self.source = source; self.interpreter = interpreter
        self.summary = summary
    }
}

extension ModelRecord {
    /// The preferences that order the catalog's listing (`models list`, the studio's cards).
    package var preferences: ModelPreferences {
        ModelPreferences(isFavorite: isFavorite, isHidden: isHidden, lastUsedAt: lastUsedAt, usageCount: usageCount)
    }
}
