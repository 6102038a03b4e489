import Foundation
import SwingTestSupport
import SwingCore
import Testing
@testable import SwingVision

@Suite struct CatalogTests {
    var tinyModel: URL { TestSupport.fixtures.appendingPathComponent("catalog_tiny.onnx") }

    func catalog(bundled: [URL] = []) throws -> (ModelCatalog, URL) {
        let home = try TestFiles.temporaryDirectory("catalog")
        return (ModelCatalog(locations: CatalogLocations(bundledDirectories: bundled, home: home)), home)
    }

    @Test func readsUltralyticsMetadataFromARealONNXFile() throws {
        let s = try ONNXModelReader.summary(of: tinyModel)
        #expect(s.metadata["task"] == "detect")
        #expect(s.inputName == "images")
        #expect(s.inputShape == [1, 3, 64, 96])
        #expect(s.producer == "swingmaster-fixture")
        #expect(CatalogMetadata.names(s.metadata["names"] ?? "") == ["tennis racket", "sports ball", "player's shadow", "net"])
    }

    @Test func namesLiteralsParseRobustly() {
        #expect(CatalogMetadata.names("{0: 'a', 1: 'b'}") == ["a", "b"])
        #expect(CatalogMetadata.names(#"{"0": "x, y", "1": "it's"}"#) == ["x, y", "it's"])
        #expect(CatalogMetadata.names(#"{0: 'don\'t', 2: "q"}"#) == ["don't", "1", "q"])
        #expect(CatalogMetadata.names("{}") == [])
        #expect(CatalogMetadata.names("[1, 2]") == nil)
        #expect(CatalogMetadata.names("{0: 'a'") == nil)
    }

    @Test func addListInfoAndRemove() throws {
        let (cat, home) = try catalog()
        defer { try? FileManager.default.removeItem(at: home) }
        let m = try cat.add(fileAt: tinyModel)
        #expect(m.id == "catalog_tiny")
        #expect(m.source == .local)
        #expect(m.task == "detect")
        #expect(m.inputSize == [64, 96])
        #expect(m.labels.count == 4)
        #expect(m.typeHint == .tennis)
        #expect(m.sizeBytes == 302)
        #expect(m.name == "Tiny catalog fixture")
        #expect(cat.models().map(\.id) == ["catalog_tiny"])
        #expect(try cat.model(id: "catalog_tiny") == m)
        try cat.remove(id: "catalog_tiny")
        #expect(cat.models().isEmpty)
        #expect(throws: CatalogError.modelNotFound("catalog_tiny")) { try cat.remove(id: "catalog_tiny") }
    }

    @Test func duplicateIdsAreRefused() throws {
        let bundled = try TestFiles.temporaryDirectory("bundled")
        defer { try? FileManager.default.removeItem(at: bundled) }
        try FileManager.default.copyItem(at: tinyModel, to: bundled.appendingPathComponent("yolo.onnx"))
        let (cat, home) = try catalog(bundled: [bundled])
        defer { try? FileManager.default.removeItem(at: home) }
        #expect(cat.models().map(\.source) == [.bundled])
        #expect(throws: CatalogError.duplicateId("yolo")) { try cat.add(fileAt: bundled.appendingPathComponent("yolo.onnx")) }
        try cat.add(fileAt: tinyModel, id: "Mine")
        #expect(throws: CatalogError.duplicateId("mine")) { try cat.add(fileAt: tinyModel, id: "mine") }
        #expect(throws: CatalogError.bundledModelReadOnly("yolo")) { try cat.remove(id: "yolo") }
        #expect(cat.models().map(\.id) == ["mine", "yolo"])
    }

    @Test func notAModelInstallsNothing() throws {
        let (cat, home) = try catalog()
        defer { try? FileManager.default.removeItem(at: home) }
        let junk = home.appendingPathComponent("junk.onnx")
        try Data("this is not protobuf at all".utf8).write(to: junk)
        #expect(throws: CatalogError.notAnONNXModel("junk.onnx")) { try cat.add(fileAt: junk) }
        #expect(try modelDirEntries(home).isEmpty)
    }

    @Test func orderingPutsFavouritesThenRecentFirstAndHidesHidden() throws {
        func m(_ id: String) -> CatalogModel {
            CatalogModel(id: id, name: id, source: .local, url: nil, path: "/x", task: nil, inputSize: nil, labels: [],
                         typeHint: .custom, sizeBytes: 0, sha256: nil, downloadedAt: nil)
        }
        let now = Date()
        let prefs: [String: ModelPreferences] = [
            "b": ModelPreferences(isFavorite: true),
            "c": ModelPreferences(lastUsedAt: now),
            "d": ModelPreferences(lastUsedAt: now.addingTimeInterval(-60)),
            "e": ModelPreferences(isHidden: true),
        ]
        let models = ["a", "b", "c", "d", "e"].map(m)
        #expect(ModelPreferences.ordered(models, preferences: prefs).map(\.id) == ["b", "c", "d", "a"])
        #expect(ModelPreferences.ordered(models, preferences: prefs, includeHidden: true).map(\.id) == ["b", "c", "d", "a", "e"])
    }

    /// Files in the models directory (installed models, sidecars, leftovers).
    func modelDirEntries(_ home: URL) throws -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("models").path)) ?? []
    }
}
