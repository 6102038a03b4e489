import Foundation
import GRDB

/// Model-catalog persistence (issue 6): favourites, hidden, thresholds, usage, interpreter config,
/// detection sessions. Setters create the record on first use, so the catalog never has to "register"
/// a model before storing a preference. Value ranges (e.g. thresholds in 0…1) are validated by the caller.
extension AppDatabase {
    /// The record for `id`, or `nil` if nothing was ever stored for it.
    /// - Throws: ``StoreError/databaseError(_:)``.
    public func modelRecord(id: String) throws -> ModelRecord? {
        try read("read the record of model \(id)") { db in try ModelRecord.fetchOne(db, key: id) }
    }

    /// Every stored record, favourites first, then most recently used, then by id.
    /// - Throws: ``StoreError/databaseError(_:)``.
    public func allModelRecords() throws -> [ModelRecord] {
        try read("read the model records") { db in
            try ModelRecord
                // "NULLS LAST" needs SQLite 3.30 features GRDB gates off; `IS NULL` sorts never-used last.
                .order(sql: "isFavorite DESC, lastUsedAt IS NULL, lastUsedAt DESC, modelId")
                .fetchAll(db)
        }
    }

    /// Marks or unmarks `id` as a favourite.
    public func setFavorite(_ isFavorite: Bool, id: String) throws {
        try updateModelRecord(id: id) { $0.isFavorite = isFavorite }
    }

    /// Hides or shows `id` in listings.
    public func setHidden(_ isHidden: Bool, id: String) throws {
        try updateModelRecord(id: id) { $0.isHidden = isHidden }
    }

    /// Sets (or with `nil`, clears) the per-model confidence and IoU thresholds.
    public func setThresholds(conf: Double?, iou: Double?, id: String) throws {
        try updateModelRecord(id: id) { $0.confThreshold = conf; $0.iouThreshold = iou }
    }

    /// Replaces the model's studio defaults (confidence, IoU, max detections, line width, interpreter and
    /// its configuration); `nil` values fall back to the built-in defaults.
    public func setDefaults(conf: Double?, iou: Double?, maxDetections: Int?, lineWidth: Int?,
                            interpreter: String?, interpreterConfigJSON: String?, id: String) throws {
        try updateModelRecord(id: id) {
            $0.confThreshold = conf; $0.iouThreshold = iou; $0.maxDetections = maxDetections
            $0.lineWidth = lineWidth; $0.interpreter = interpreter; $0.interpreterConfigJSON = interpreterConfigJSON
        }
    }

    /// Counts one use of `id` at `date` (usage count + 1, last used = `date`).
    public func recordModelUse(id: String, at date: Date = Date()) throws {
        try updateModelRecord(id: id) { $0.usageCount += 1; $0.lastUsedAt = date }
    }

    /// Records that `id` was downloaded at `date`.
    public func recordDownload(id: String, at date: Date = Date()) throws {
        try updateModelRecord(id: id) { $0.downloadedAt = date }
    }

    /// Stores (or with `nil`, clears) the interpreter configuration JSON of `id`.
    public func setInterpreterConfig(_ json: String?, id: String) throws {
        try updateModelRecord(id: id) { $0.interpreterConfigJSON = json }
    }

    /// Deletes the record of `id` (its detection sessions stay, as history).
    /// - Returns: whether a record existed.
    @discardableResult
    public func removeModelRecord(id: String) throws -> Bool {
        try write("remove the record of model \(id)") { db in try ModelRecord.deleteOne(db, key: id) }
    }

    /// Saves a detection session and returns its new id.
    @discardableResult
    public func saveDetectionSession(_ session: DetectionSessionRecord) throws -> Int64 {
        try write("save the detection session") { db in
            var record = session
            record.id = nil
            try record.insert(db)
            return record.id ?? db.lastInsertedRowID
        }
    }

    /// Detection sessions, newest first, optionally for one model only and at most `limit` of them.
    public func detectionSessions(modelId: String? = nil, limit: Int? = nil) throws -> [DetectionSessionRecord] {
        try read("read the detection sessions") { db in
            var request = DetectionSessionRecord.all()
            if let modelId { request = request.filter(DetectionSessionRecord.Columns.modelId == modelId) }
            request = request.order(DetectionSessionRecord.Columns.startedAt.desc)
            if let limit { request = request.limit(limit) }
            return try request.fetchAll(db)
        }
    }

    /// Read-modify-write of one model record in a single transaction (created with defaults if absent).
    private func updateModelRecord(id: String, _ change: @Sendable (inout ModelRecord) -> Void) throws {
        try write("update the record of model \(id)") { db in
            var record = try ModelRecord.fetchOne(db, key: id) ?? ModelRecord(modelId: id)
            change(&record)
            try record.save(db)
        }
    }
}
