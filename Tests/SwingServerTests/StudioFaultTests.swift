import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SwingCore
@testable import SwingServer
import SwingTestSupport
import Testing

/// The CLI fault suite's hostile inputs (`tools/make_hostile_inputs.py`: edited model metadata, a zip bomb,
/// fake and truncated media), sent through the studio's routes as a browser would send them. Each is
/// refused with one sentence and a 4xx status, and the catalog and the staging folder are left exactly as
/// they were: nothing installed, nothing half-written.
@Suite(.serialized) struct StudioFaultTests {
    static let root = TestFiles.packageRoot

    /// The hostile inputs, made once into a temporary folder.
    static let inputs: Result<URL, any Error> = Result {
        let dir = try TestFiles.processDirectory("studio-hostile")
        _ = try Subprocess.output("python3", [root.appendingPathComponent("tools/make_hostile_inputs.py").path, dir.path])
        return dir
    }

    /// Every file below `dir` (relative paths), for before/after comparisons.
    static func files(_ dir: URL) -> [String] {
        let e = FileManager.default.enumerator(atPath: dir.path)
        var out: [String] = []
        while let p = e?.nextObject() as? String { out.append(p) }
        return out.sorted()
    }

    @Test func hostileModelsAreRefusedAndNothingIsInstalled() async throws {
        let dir = try Self.inputs.get()
        let server = try TestServer()
        try await server.run { client in
            let models = server.home.appendingPathComponent("models")
            let before = Self.files(models)
            for name in ["deep-names.onnx", "huge-kpt.onnx", "huge-imgsz.onnx", "many-classes.onnx", "bomb.zip", "deep.json", "text.mp4"] {
                let bytes = try Data(contentsOf: dir.appendingPathComponent(name))
                // A wrong extension is refused by name; the rest are read and refused for what they hold.
                let sent = name.hasSuffix(".onnx") || name.hasSuffix(".zip") ? name : name + ".onnx"
                let r = try await client.addModel(bytes, name: sent)
                #expect((400..<500).contains(Int(r.status.code)), "\(name): \(r.status)")
                let sentence = try decoded(APIErrorBody.self, r, "adding \(name)").error
                #expect(ErrorSentence.isWellFormed(sentence), "\(name): \(sentence)")
                #expect(Self.files(models) == before, "\(name) left files in the catalog")
                let staged = Self.files(server.home.appendingPathComponent("cache/uploads"))
                #expect(staged.isEmpty, "\(name) left a staged upload: \(staged)")
            }
            // The catalog still lists what it listed, and still answers.
            let (status, listed) = try await client.json(ModelList.self, "/api/models")
            #expect(status == .ok)
            #expect(listed.models.allSatisfy { $0.id.hasPrefix("pose_") })
        }
    }

    @Test func hostilePicturesGetASentence() async throws {
        let dir = try Self.inputs.get()
        try await TestServer().run { client in
            #expect(try await client.addModel(try Data(contentsOf: StudioRouteTests.detector), name: "det.onnx").status == .created)
            // A video sent as a picture is read for its first frame, even cut short.
            let cut = try await client.detect(try Data(contentsOf: dir.appendingPathComponent("truncated.mp4")), query: "model=det")
            let cutResults = try decoded(Wire.InterpretedDetections<JSONValue>.self, cut, "detecting on truncated.mp4").document.results
            #expect(cut.status == .ok && cutResults.count == 1, "\(cut.status)")
            for name in ["empty.mp4", "text.mp4", "deep.json", "bomb.zip"] {
                let r = try await client.detect(try Data(contentsOf: dir.appendingPathComponent(name)), query: "model=det")
                #expect((400..<500).contains(Int(r.status.code)), "\(name): \(r.status)")
                let sentence = try decoded(APIErrorBody.self, r, "detecting on \(name)").error
                #expect(ErrorSentence.isWellFormed(sentence), "\(name): \(sentence)")
            }
            // A picture larger than the limit is refused before it is read whole.
            let huge = Data(repeating: 0xFF, count: DetectRoutes.maxImageBytes + 1)
            let r = try await client.detect(huge, query: "model=det")
            #expect(r.status == .contentTooLarge, "\(r.status)")
            // Thresholds no slider can send.
            for query in ["conf=1e19", "conf=nan", "iou=-1", "maxDet=\(Int.max)", "conf=inf", "maxDet=1e19"] {
                let bad = try await client.detect(try StudioRouteTests.jpeg(), query: "model=det&\(query)")
                #expect(bad.status == .badRequest, "\(query): \(bad.status)")
                #expect(ErrorSentence.isWellFormed(try decoded(APIErrorBody.self, bad, "detecting with \(query)").error), "\(query)")
            }
        }
    }
}
