import Foundation
import GRDB
import SwingAudio
import SwingBiomech
import SwingCore
import Testing
@testable import SwingStore

/// The two stores spell the values their CHECK constraints allow in SQL of their own (SQLite's migrations and
/// PostgreSQL's baseline and later statements are frozen once released, so neither is generated from the other).
/// Read from the SQL itself: every list one store checks, the other checks too, and each is exactly one of
/// today's enums (a case added to an enum needs a migration widening the check in both stores, or one store
/// would refuse what the other keeps).
@Suite struct SchemaListsTests {
    /// The value lists of every `IN (...)` in `sql`, each as a sorted set of its quoted values.
    static func lists(in sql: String) -> Set<[String]> {
        var out = Set<[String]>()
        var rest = Substring(sql)
        while let open = rest.range(of: " IN (") ?? rest.range(of: " IN(") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: ")") else { break }
            let values = rest[..<close].split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            if values.allSatisfy({ $0.hasPrefix("'") && $0.hasSuffix("'") && $0.count >= 2 }) {
                out.insert(values.map { String($0.dropFirst().dropLast()) }.sorted())
            }
            rest = rest[close...]
        }
        return out
    }

    /// Today's enums whose raw values a column or a JSON field of the schema holds.
    static let enums: [String: [String]] = [
        "Hand": Hand.allCases.map(\.rawValue),
        "JobState": JobState.allCases.map(\.rawValue),
        "AnalysisStage": AnalysisStage.allCases.map(\.rawValue),
        "ContactSensitivity": ContactSensitivity.allCases.map(\.rawValue),
        "ShotStatus": ShotStatus.allCases.map(\.rawValue),
        "ContactClassification": ContactClassification.allCases.map(\.rawValue),
        "ContactSource": ContactSource.allCases.map(\.rawValue),
    ]

    @Test func bothStoresCheckTheSameListsAndEachIsOneOfTodaysEnums() async throws {
        let db = try AppDatabase.empty()
        let sqlite = try await db.dbWriter.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL").joined(separator: "\n")
        }
        let postgres = (PostgresStore.baseline + PostgresStore.laterMigrations.values.flatMap { $0 }).joined(separator: "\n")
        let inSQLite = Self.lists(in: sqlite), inPostgres = Self.lists(in: postgres)
        #expect(inSQLite.count >= 6, "found \(inSQLite)")
        #expect(inSQLite == inPostgres, "SQLite only: \(inSQLite.subtracting(inPostgres)); PostgreSQL only: \(inPostgres.subtracting(inSQLite))")
        let known = Set(Self.enums.values.map { $0.sorted() })
        for list in inSQLite.union(inPostgres) {
            #expect(known.contains(list), "\(list) is no enum's values today: widen the check in both stores' migrations")
        }
        for (name, values) in Self.enums {
            #expect(inSQLite.contains(values.sorted()), "\(name)'s values \(values) are not the list the schema checks")
        }
    }

    @Test func theListReaderFindsQuotedListsOnly() {
        let sql = "CHECK (a IN ('x', 'y')) AND b IN (1, 2) AND COALESCE(c->>'d' IN ('p','q'), TRUE) AND e IN(SELECT 1)"
        #expect(Self.lists(in: sql) == [["x", "y"], ["p", "q"]])
    }
}
