import Foundation
import GRDB

/// A contact model the player had Swingmaster learn from one of their sessions — "your racket's sound" on
/// the results page (`contactModel` table). The store keeps the model as the JSON `learn-contacts` writes;
/// the application layer decodes it. Uploads name it by ``id`` (``JobRecord/contactModelId``).
public struct ContactModelRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "contactModel"
    /// Row id; `nil` until saved.
    public var id: Int64?
    /// What the player sees it called (by default the video it was learnt from).
    public var name: String
    public var createdAt: Date
    /// The session it was learnt from, in this store; `nil` when that session was in another store
    /// (`swingmaster migrate` copies the model, not the link). The session may have been deleted since.
    public var sessionId: Int64?
    /// Confirmed contacts it learnt from, and its F1 on them (what the pages show without decoding ``model``).
    public var contacts: Int
    public var f1: Double
    /// The model, as `learn-contacts --out` writes it.
    public var model: String

    public init(id: Int64? = nil, name: String, createdAt: Date = Date(), sessionId: Int64?, contacts: Int, f1: Double, model: String) {
        self.id = id; self.name = name; self.createdAt = createdAt; self.sessionId = sessionId
        self.contacts = contacts; self.f1 = f1; self.model = model
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Column names, for callers writing their own GRDB requests.
    public enum Columns {
        public static let createdAt = Column(CodingKeys.createdAt)
    }
}
