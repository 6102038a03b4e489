import Foundation
import SwingCore
import Testing
@testable import SwingInference

private func error(_ body: () throws -> Void) -> InferenceError? {
    do { try body() } catch let error as InferenceError { return error } catch { return nil }
    return nil
}

@Suite struct InferenceErrorTests {
    @Test func wrongInnerDimensionIsRejectedBeforeRun() throws {
        let session = try Fixture.affine()
        let failure = error { _ = try session.run(["x": Tensor(shape: [2, 4], data: .init(repeating: 0, count: 8))]) }
        #expect(failure?.kind == .modelUnsupported)
        #expect(failure?.statusCode == StatusCode.modelUnsupported)
        #expect(failure?.description.contains("[?, 3]") == true)
    }

    @Test func wrongRankAndDataCountAreRejected() throws {
        let session = try InferenceSession(modelPath: Fixture.path("fixed_relu"))
        let rank = error { _ = try session.run(["images": Tensor(shape: [2, 2, 2], data: .init(repeating: 0, count: 8))]) }
        #expect(rank?.kind == .modelUnsupported)
        let batch = error { _ = try session.run(["images": Tensor(shape: [2, 2, 2, 2], data: .init(repeating: 0, count: 16))]) }
        #expect(batch?.kind == .modelUnsupported)
        let count = error { _ = try session.run(["images": Tensor(shape: [1, 2, 2, 2], data: [1, 2, 3])]) }
        #expect(count?.kind == .modelUnsupported)
        #expect(count?.description.contains("3 values") == true)
        let short: [Float] = [1, 2, 3]
        let zeroCopy = error { _ = try short.withUnsafeBufferPointer { try session.run(inputName: "images", shape: [1, 2, 2, 2], data: $0) } }
        #expect(zeroCopy?.kind == .modelUnsupported)
    }

    @Test func unknownNamesAreRejected() throws {
        let session = try Fixture.affine()
        let input = error { _ = try session.run(["images": Tensor(shape: [1, 3], data: [0, 0, 0])]) }
        #expect(input?.kind == .modelUnsupported)
        #expect(input?.description.contains("x") == true)
        let output = error { _ = try session.run(["x": Tensor(shape: [1, 3], data: [0, 0, 0])], outputNames: ["nope"]) }
        #expect(output?.kind == .modelUnsupported)
        let missing = error { _ = try session.run([:]) }
        #expect(missing?.description == "Missing model input x.")
    }

    @Test func nonFloatInputIsUnsupported() throws {
        let session = try InferenceSession(modelPath: Fixture.path("int_input"))
        #expect(session.inputs.first?.elementType == .int64)
        let failure = error { _ = try session.run(["ids": Tensor(shape: [1, 4], data: [1, 2, 3, 4])]) }
        #expect(failure?.kind == .modelUnsupported)
        #expect(failure?.description.contains("only float32 inputs") == true)
    }

    @Test func missingModelFileIsUnreadable() {
        let path = "/nonexistent/dir/yolo11n.onnx"
        let failure = error { _ = try InferenceSession(modelPath: path) }
        #expect(failure?.kind == .modelUnreadable)
        #expect(failure?.statusCode == StatusCode.modelUnreadable)
        #expect(failure?.description.contains(path) == true)
    }

    @Test func garbageFileIsUnreadableWithOrtMessage() throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("garbage-\(UUID().uuidString).onnx")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let fromFile = error { _ = try InferenceSession(modelPath: url.path) }
        #expect(fromFile?.kind == .modelUnreadable)
        #expect(fromFile?.description.hasPrefix("Could not load ONNX model \(url.path): ") == true)
        let fromBytes = error { _ = try InferenceSession(modelData: bytes) }
        #expect(fromBytes?.kind == .modelUnreadable)
        let empty = error { _ = try InferenceSession(modelData: []) }
        #expect(empty?.kind == .modelUnreadable)
    }

    @Test func missingLibraryIsReportedClearly() {
        let result = OrtRuntime.load(candidates: ["/nonexistent/libonnxruntime.so"])
        guard case .failure(let failure) = result else {
            Issue.record("a bogus library path loaded")
            return
        }
        #expect(failure.kind == .runtimeUnavailable)
        #expect(failure.statusCode == StatusCode.runtimeUnavailable)
        #expect(failure.description.hasPrefix("ONNX Runtime not found: run `make setup` or set SWINGMASTER_ONNXRUNTIME"))
    }

    @Test func libraryWithoutOrtSymbolIsRejected() {
        #if os(Linux)
        let result = OrtRuntime.load(candidates: ["libm.so.6"])
        guard case .failure(let failure) = result else {
            Issue.record("libm was accepted as ONNX Runtime")
            return
        }
        #expect(failure.description.contains("does not export OrtGetApiBase"))
        #endif
    }

    @Test func environmentVariableIsTheOnlyCandidateWhenSet() {
        let env = [OrtLibraryLoader.environmentVariable: "/opt/gpu/libonnxruntime.so"]
        #expect(OrtLibraryLoader.candidates(environment: env) == ["/opt/gpu/libonnxruntime.so"])
        let fallback = OrtLibraryLoader.candidates(environment: [:])
        #expect(fallback.last == OrtLibraryLoader.sharedLibraryFileName)
    }

    @Test func sharedRuntimeReportsItsVersion() throws {
        let runtime = try OrtRuntime.current()
        let parts = runtime.version.split(separator: ".").compactMap { Int($0) }
        #expect(parts.count == 3)
        #expect((parts.first ?? 0, parts.dropFirst().first ?? 0) >= (1, 17))
    }
}
