import Foundation
import GRDB

/// A contact model the player had Swingmaster learn from one of their sessions — "your racket's sound" on
/// the results page (`contactModel` table). The store keeps the model as the JSON `learn-contacts` writes;
/// the application layer decodes it. Uploads name it by ``id`` (``JobRecord/contactModelId``).
package struct ContactModelRecord: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord {
    package static let databaseTableName = "contactModel"
    /// Row id; `nil` until saved.
    package var id: Int64?
    /// What the player sees it called (by default the video it was learnt from).
    package var name: String
    package var createdAt: Date
    /// The session it was learnt from, in this store; `nil` when that session was in another store
    /// (`swingmaster migrate` copies the model, not the link). The session may have been deleted since.
    package var sessionId: Int64?
    /// Confirmed contacts it learnt from, and its F1 on them (what the pages show without decoding ``model``).
    package var contacts: Int
    package var f1: Double
    /// The model, as `learn-contacts --out` writes it.
    package var model: String

    package init(id: Int64? = nil, name: String, createdAt: Date = Date(), sessionId: Int64?, contacts: Int, f1: Double, model: String) {
        self.id = id; self.name = name; self.createdAt = createdAt; self.sessionId = sessionId
        self.contacts = contacts; self.f1 = f1; self.model = model
    }

    package mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Column names, for callers writing their own GRDB requests.
    package enum Columns {
        package static let createdAt = Column(CodingKeys.createdAt)
    }
}
