import Foundation
import SwingTestSupport
import SwingCore
import Testing
@testable import SwingVision

/// Models whose metadata was edited to hurt: deep nesting, sizes near `Int.max`, huge class tables. The
/// metadata parser cannot overflow, such models never enter the catalog, and a damaged file already in
/// the catalog is listed as such and can be removed.
@Suite struct HostileMetadataTests {
    static let tinyModel = TestSupport.fixtures.appendingPathComponent("catalog_tiny.onnx")

    /// `model` with one more `metadata_props` entry (ModelProto field 14, a StringStringEntryProto).
    /// Protobuf lets a repeated field appear anywhere and the later entry of a key wins, so this edits
    /// the metadata of a real model exactly as a hostile exporter would.
    static func model(_ model: URL, with key: String, _ value: String) throws -> Data {
        func varint(_ n: Int) -> [UInt8] {
            var n = UInt64(n), out: [UInt8] = []
            repeat { out.append(UInt8(n & 0x7F) | (n > 0x7F ? 0x80 : 0)); n >>= 7 } while n > 0
            return out
        }
        func field(_ number: Int, _ bytes: [UInt8]) -> [UInt8] { varint(number << 3 | 2) + varint(bytes.count) + bytes }
        let entry = field(1, Array(key.utf8)) + field(2, Array(value.utf8))
        return try Data(contentsOf: model) + Data(field(14, entry))
    }

    func catalog() throws -> (ModelCatalog, URL) {
        let home = try TestFiles.temporaryDirectory("hostile")
        return (ModelCatalog(locations: CatalogLocations(bundledDirectories: [], home: home)), home)
    }

    @Test(arguments: [1, 33, 1_000, 50_000])
    func deepNestingIsRefusedWithoutRecursingIntoIt(depth: Int) {
        let text = String(repeating: "{0: ", count: depth) + "'x'" + String(repeating: "}", count: depth)
        let parsed = PythonLiteral.parse(text)
        #expect((parsed != nil) == (depth <= PythonLiteral.maxDepth))
        #expect(PythonLiteral.parse(String(repeating: "[", count: depth)) == nil)
    }

    @Test func textOverTheLengthLimitIsNotParsed() {
        let long = "'" + String(repeating: "a", count: PythonLiteral.maxLength) + "'"
        #expect(PythonLiteral.parse(long) == nil)
        #expect(PythonLiteral.parse("'" + String(repeating: "a", count: 1000) + "'") == .string(String(repeating: "a", count: 1000)))
    }

    @Test(arguments: [
        ("kpt_shape", "[9223372036854775807, 3]"), ("kpt_shape", "[17, 9223372036854775807]"), ("kpt_shape", "[0, 3]"),
        ("imgsz", "[9223372036854775807, 640]"), ("imgsz", "[0, 640]"),
    ])
    func sizesFromMetadataAreCheckedBeforeUse(key: String, value: String) {
        #expect(throws: VisionError.self) {
            _ = try YOLOModelInfo(metadata: ["task": "pose", key: value], inputShape: [1, 3, -1, -1], outputShapes: [[1, 56, 8400]])
        }
    }

    @Test(arguments: [
        ("names", String(repeating: "{0: ", count: 50_000) + "'x'" + String(repeating: "}", count: 50_000)),
        ("names", "{" + (0..<100_001).map { "\($0): 'c'" }.joined(separator: ", ") + "}"),
        ("imgsz", "[99999999999, 640]"),
        ("kpt_shape", "[9223372036854775807, 3]"),
    ])
    func aModelWithHostileMetadataNeverEntersTheCatalog(key: String, value: String) throws {
        let (cat, home) = try catalog()
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("hostile.onnx")
        try Self.model(Self.tinyModel, with: key, value).write(to: file)
        #expect(try ONNXModelReader.summary(of: file).metadata[key] == value)   // the edit is really there
        #expect(throws: CatalogError.self) { try cat.add(fileAt: file) }
        #expect(cat.models().isEmpty)
    }

    @Test func aDamagedFileInTheCatalogIsListedAndCanBeRemoved() throws {
        let (cat, home) = try catalog()
        defer { try? FileManager.default.removeItem(at: home) }
        try cat.add(fileAt: Self.tinyModel, id: "good")
        // A file damaged after it was installed (a truncated copy, a disk error).
        let damaged = cat.locations.modelsDirectory.appendingPathComponent("broken.onnx")
        try Data(try Data(contentsOf: Self.tinyModel).prefix(100)).write(to: damaged)
        let models = cat.models()
        #expect(models.map(\.id) == ["broken", "good"])
        #expect(models.first { $0.id == "broken" }?.problem != nil)
        #expect(models.first { $0.id == "good" }?.problem == nil)
        try cat.remove(id: "broken")
        #expect(cat.models().map(\.id) == ["good"])
    }
}
