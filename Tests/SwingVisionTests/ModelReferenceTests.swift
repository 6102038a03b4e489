import Foundation
import SwingTestSupport
import SwingCore
import Testing
@testable import SwingVision

/// `--model X` / `--detector X`: a file path if the file exists, else a catalog id, else a clear error.
@Suite struct ModelReferenceTests {
    var tinyModel: URL { TestSupport.fixtures.appendingPathComponent("catalog_tiny.onnx") }

    /// A catalog with one bundled directory and an empty home, both fresh.
    func catalog() throws -> (ModelCatalog, bundled: URL, home: URL) {
        let bundled = try TestFiles.temporaryDirectory("ref-bundled")
        let home = try TestFiles.temporaryDirectory("ref-home")
        return (ModelCatalog(locations: CatalogLocations(bundledDirectories: [bundled], home: home)), bundled, home)
    }

    @Test func aPlainFileOutsideTheCatalogIsNotACatalogModel() throws {
        let (cat, bundled, home) = try catalog()
        defer { try? FileManager.default.removeItem(at: bundled); try? FileManager.default.removeItem(at: home) }
        let ref = try cat.resolve(tinyModel.path)
        #expect(ref.path == tinyModel.path)
        #expect(ref.catalogModel == nil)
    }

    @Test func anIdResolvesToTheInstalledFileCaseInsensitively() throws {
        let (cat, bundled, home) = try catalog()
        defer { try? FileManager.default.removeItem(at: bundled); try? FileManager.default.removeItem(at: home) }
        let added = try cat.add(fileAt: tinyModel, id: "Racket-Ball")
        let ref = try cat.resolve("RACKET-BALL")
        #expect(ref.catalogModel?.id == "racket-ball")
        #expect(ref.path == added.path)
        #expect(FileManager.default.fileExists(atPath: ref.path))
    }

    @Test func aPathToAFileTheCatalogListsIsThatCatalogModel() throws {
        let (cat, bundled, home) = try catalog()
        defer { try? FileManager.default.removeItem(at: bundled); try? FileManager.default.removeItem(at: home) }
        try FileManager.default.copyItem(at: tinyModel, to: bundled.appendingPathComponent("shipped.onnx"))
        let installed = try cat.add(fileAt: tinyModel, id: "mine")
        // Named through a relative-looking, unstandardised path: still the bundled model.
        let odd = bundled.path + "/./shipped.onnx"
        #expect(try cat.resolve(odd).catalogModel?.id == "shipped")
        #expect(try cat.resolve(installed.path).catalogModel?.id == "mine")
        // A non-model file in a catalog directory is a plain file (the catalog lists it only as damaged).
        let junk = bundled.appendingPathComponent("junk.onnx")
        try Data("not a model".utf8).write(to: junk)
        let ref = try cat.resolve(junk.path)
        #expect(ref.catalogModel == nil && ref.path == junk.path)
    }

    @Test func neitherFileNorIdIsAClearErrorWithItsExitCode() throws {
        let (cat, bundled, home) = try catalog()
        defer { try? FileManager.default.removeItem(at: bundled); try? FileManager.default.removeItem(at: home) }
        for arg in ["/nonexistent/yolo.onnx", "no-such-model", bundled.path] {
            #expect(throws: CatalogError.unresolvedModel(arg)) { try cat.resolve(arg) }
        }
        let e = CatalogError.unresolvedModel("racket")
        #expect(e.statusCode == StatusCode.modelUnreadable)
        #expect(e.description.contains("Model file not found") && e.description.contains("swingmaster models list"))
    }
}
