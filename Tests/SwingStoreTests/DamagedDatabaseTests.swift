import Foundation
import SwingTestSupport
import SwingCore
import Testing
@testable import SwingStore

/// A database file damaged after it was written (a bad disk, a copy cut short): reading it gives one
/// sentence saying so, with what SQLite's integrity check found, and the damage is left as it was (not
/// "repaired" into an empty schema). GRDB's pool touches the header on open (its WAL set-up), so the
/// check is on the damaged page, not the whole file.
struct DamagedDatabaseTests {
    @Test(arguments: [0.4, 0.7, 0.99])
    func damagedPagesAreReportedAndLeftAlone(at fraction: Double) async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("damaged-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        do {
            let db = try AppDatabase.open(home: home)
            for i in 0..<40 {
                var s = StoreFixtures.session("s\(i).mp4", at: Double(i))
                s.fileName = String(repeating: "x", count: 2000)
                try await db.saveSession(s, shots: (1...5).map(StoreFixtures.shot))
            }
            // Everything into the main file, the WAL emptied: the damage below is all there is.
            _ = try await db.dbWriter.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        }
        let file = home.appendingPathComponent(AppDatabase.fileName)
        var bytes = try Data(contentsOf: file)
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let page = max(1, Int(Double(bytes.count / pageSize) * fraction))
        try #require(bytes.count >= (page + 1) * pageSize)
        var rng = SystemRandomNumberGenerator()
        for i in (page * pageSize)..<((page + 1) * pageSize) { bytes[i] = UInt8.random(in: 0...255, using: &rng) }
        try bytes.write(to: file)
        let damage = bytes[(page * pageSize)..<((page + 1) * pageSize)]

        await #expect {
            let db = try AppDatabase.open(home: home)
            for s in try await db.sessions() { _ = try await db.session(id: s.id ?? 0) }
            _ = try await db.reader.read { try Int.fetchOne($0, sql: "SELECT sum(length(fileName)) FROM session") }
        } throws: { error in
            let sentence = (error as? StoreError)?.description ?? "\(error)"
            return sentence.contains("damaged") && sentence.contains("left as it is")
        }
        let after = try Data(contentsOf: file)
        #expect(after.count >= bytes.count && after[(page * pageSize)..<((page + 1) * pageSize)] == damage,
                "the damaged page was rewritten")
    }
}
