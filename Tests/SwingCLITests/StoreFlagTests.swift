import Foundation
import Testing
import SwingCore
import SwingTestSupport

/// `--database` and the worker's and migrate's flags: a malformed store or a hostile number is one
/// sentence and exit 64 before anything opens; an unreachable server is one sentence and exit 40.
@Suite struct StoreFlagTests {
    @Test(arguments: [
        ["sessions", "list", "--database", "sqlite:"],
        ["analyze", "x.mp4", "--database", "nan"],
        ["serve", "--database", "mysql://db/x"],
        ["serve", "--workers", "-1"],
        ["serve", "--lease-seconds", "nan"],
        ["worker", "--database", "1e19"],
        ["worker", "--concurrency", "9223372036854775807"],
        ["worker", "--lease-seconds", "1e19"],
        ["worker", "--lease-seconds", "-1"],
        ["worker", "--pose-workers", "-1"],
        ["migrate", "--to", "postgres:///nohost"],
        ["migrate", "--from", "sqlite:/tmp/same.sqlite", "--to", "sqlite:/tmp/same.sqlite"],
    ])
    func aHostileStoreFlagIsAUsageError(_ args: [String]) async throws {
        let home = try TestFiles.temporaryDirectory("store-flags")
        defer { try? FileManager.default.removeItem(at: home) }
        let out = try await InProcess.run(args, environment: ["SWINGMASTER_HOME": home.path])
        #expect(out.status == StatusCode.usage, "\(args): \(out.status) \(out.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).isEmpty, "\(args) created files")
    }

    @Test func anUnreachableServerIsOneSentenceAndExit40() async throws {
        let port = try TestFiles.freePort()
        let out = try await InProcess.run(["sessions", "list", "--database", "postgres://x@127.0.0.1:\(port)/db"])
        #expect(out.status == StatusCode.databaseError)
        let sentence = out.stderr.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "error: ", with: "")
        #expect(ErrorSentence.isWellFormed(sentence) && sentence.contains("connection refused"), "\(out.stderr)")
    }
}
