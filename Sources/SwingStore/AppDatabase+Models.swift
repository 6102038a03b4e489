import Foundation
import GRDB

/// Model-catalog persistence (issue 6): favourites, hidden, thresholds, usage, interpreter config,
/// detection sessions. Setters create the record on first use, so the catalog never has to "register"
/// a model before storing a preference. Value ranges (e.g. thresholds in 0…1) are validated by the caller.
extension AppDatabase {
    /// The record for `id`, or `nil` if nothing was ever stored for it.
    /// - Throws: ``StoreError/databaseError(_:)``.
    package func modelRecord(id: String) async throws -> ModelRecord? {
        try await read("read the record of model \(id)") { db in try ModelRecord.fetchOne(db, key: id) }
    }

    /// Every stored record, favourites first, then most recently used, then by id.
    /// - Throws: ``StoreError/databaseError(_:)``.
    package func allModelRecords() async throws -> [ModelRecord] {
        try await read("read the model records") { db in
            try ModelRecord
                // "NULLS LAST" needs SQLite 3.30 features GRDB gates off; `IS NULL` sorts never-used last.
                .order(sql: "isFavorite DESC, lastUsedAt IS NULL, lastUsedAt DESC, modelId")
                .fetchAll(db)
        }
    }

    /// Deletes the record of `id` (its detection sessions stay, as history).
    /// - Returns: whether a record existed.
    @discardableResult
    package func removeModelRecord(id: String) async throws -> Bool {
        try await write("remove the record of model \(id)") { db in try ModelRecord.deleteOne(db, key: id) }
    }

    /// Saves a detection session and returns its new id.
    @discardableResult
    package func saveDetectionSession(_ session: DetectionSessionRecord) async throws -> Int64 {
        try await insertNew(session, id: \.id, "save the detection session")
    }

    /// Inserts `record` as a new row (whatever its `id` said) and returns the id it was given.
    func insertNew<R: MutablePersistableRecord & Sendable>(_ record: R, id: WritableKeyPath<R, Int64?> & Sendable,
                                                         _ what: String) async throws -> Int64 {
        try await write(what) { db in
            var copy = record
            copy[keyPath: id] = nil
            try copy.insert(db)
            return copy[keyPath: id] ?? db.lastInsertedRowID
        }
    }

    /// Detection sessions, newest first, optionally for one model only and at most `limit` of them.
    package func detectionSessions(modelId: String?, limit: Int?) async throws -> [DetectionSessionRecord] {
        try await read("read the detection sessions") { db in
            var request = DetectionSessionRecord.all()
            if let modelId { request = request.filter(DetectionSessionRecord.Columns.modelId == modelId) }
            request = request.order(DetectionSessionRecord.Columns.startedAt.desc)
            if let limit { request = request.limit(limit) }
            return try request.fetchAll(db)
        }
    }

    /// Read-modify-write of one model record in a single transaction (created with defaults if absent).
    package func updateModelRecord(id: String, _ change: @escaping @Sendable (inout ModelRecord) -> Void) async throws {
        try await write("update the record of model \(id)") { db in
            var record = try ModelRecord.fetchOne(db, key: id) ?? ModelRecord(modelId: id)
            change(&record)
            try record.save(db)
        }
    }
}

/// The player's racket sounds (``ContactModelRecord``).
extension AppDatabase {
    package func saveContactModel(_ record: ContactModelRecord) async throws -> Int64 {
        try await insertNew(record, id: \.id, "save the racket sound")
    }

    package func contactModels() async throws -> [ContactModelRecord] {
        try await read("read the racket sounds") { db in
            try ContactModelRecord.order(ContactModelRecord.Columns.createdAt.desc, Column("id").desc).fetchAll(db)
        }
    }

    package func contactModel(id: Int64) async throws -> ContactModelRecord? {
        try await read("read racket sound \(id)") { db in try ContactModelRecord.fetchOne(db, key: id) }
    }

    package func removeContactModel(id: Int64) async throws -> Bool {
        try await write("delete racket sound \(id)") { db in try ContactModelRecord.deleteOne(db, key: id) }
    }
}
