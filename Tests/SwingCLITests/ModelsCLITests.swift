import Foundation
import SwingTestSupport
import SwingCore
import Testing

/// `swingmaster models …` through the real binary, in a throw-away SWINGMASTER_HOME.
@Suite struct ModelsCLITests {
    @Test func addFavoriteSetListAndRemove() async throws {
        let home = try TestFiles.temporaryDirectory("models-home")
        defer { try? FileManager.default.removeItem(at: home) }
        let env = ["SWINGMASTER_HOME": home.path, "SWINGMASTER_MODELS": home.appendingPathComponent("none").path]
        let model = TestFiles.packageRoot.appendingPathComponent("Tests/SwingVisionTests/Fixtures/catalog_tiny.onnx").path
        func run(_ args: [String]) async throws -> SwingmasterBinary.Output { try await InProcess.run(["models"] + args, environment: env) }

        await #expect(try run(["add", model, "--id", "alpha"]).status == 0)
        await #expect(try run(["add", model, "--id", "beta"]).status == 0)
        let dup = try await run(["add", model, "--id", "beta"])
        #expect(dup.status == StatusCode.catalogError)
        #expect(dup.stderr.contains("already exists"))
        await #expect(try run(["favorite", "beta"]).status == 0)
        await #expect(try run(["set", "alpha", "--conf", "0.4", "--iou", "0.6"]).status == 0)
        await #expect(try run(["set", "alpha", "--conf", "1.5"]).status == 64)

        let list = try await run(["list", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: list.data) as? [[String: Any]])
        #expect(rows.map { $0["id"] as? String } == ["beta", "alpha"])        // favourite first
        // The same model view as `GET /api/models`: the stored thresholds under `defaults`, the use count, the file.
        let defaults = rows[1]["defaults"] as? [String: Any]
        #expect(defaults?["conf"] as? Double == 0.4 && defaults?["iou"] as? Double == 0.6 && defaults?["maxDet"] as? Int == 300)
        #expect(rows.allSatisfy { $0["useCount"] as? Int == 0 && ($0["sha256"] as? String)?.count == 64 })
        #expect(rows.allSatisfy { FileManager.default.fileExists(atPath: $0["path"] as? String ?? "") })
        #expect(rows[0]["typeHint"] as? String == "tennis")

        await #expect(try run(["hide", "alpha"]).status == 0)
        await #expect(try run(["list"]).stdout.contains("alpha") == false)
        await #expect(try run(["list", "--all"]).stdout.contains("alpha"))

        let info = try await run(["info", "beta"])
        let obj = try #require(try JSONSerialization.jsonObject(with: info.data) as? [String: Any])
        #expect(obj["labels"] as? [String] == ["tennis racket", "sports ball", "player's shadow", "net"])
        #expect(obj["inputSize"] as? [Int] == [64, 96])

        await #expect(try run(["remove", "beta"]).status == 0)
        let gone = try await run(["info", "beta"])
        #expect(gone.status == StatusCode.notFound)
        #expect(gone.stderr.contains("No model with id 'beta'"))
        let notModel = try await run(["add", "/etc/hostname"])
        #expect(notModel.status == StatusCode.modelUnreadable)
    }
}
