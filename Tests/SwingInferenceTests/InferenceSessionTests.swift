import Foundation
import SwingCore
import Testing
@testable import SwingInference

/// Fixture models come from tools/make_tiny_onnx.py. `affine.onnx`: y = x·W + b with
/// W = [[1,2],[3,4],[5,6]], b = [0.5,-1]; z = x + 1; argmax = int64 argmax(y, axis 1); batch axis dynamic.
enum Fixture {
    static func path(_ name: String) throws -> String {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "onnx", subdirectory: "Fixtures"))
        return url.path
    }

    static func affine() throws -> InferenceSession { try InferenceSession(modelPath: path("affine")) }

    /// numpy reference: x @ W + b.
    static func affineReference(_ x: [Float]) -> [Float] {
        let w: [[Float]] = [[1, 2], [3, 4], [5, 6]]
        let b: [Float] = [0.5, -1]
        var y: [Float] = []
        for row in stride(from: 0, to: x.count, by: 3) {
            for col in 0..<2 {
                var sum = b[col]
                for k in 0..<3 { sum += x[row + k] * w[k][col] }
                y.append(sum)
            }
        }
        return y
    }
}

/// Exact small-integer / half-integer arithmetic: float32 represents every intermediate exactly,
/// so any difference beyond rounding noise means a wrong binding.
private func expectClose(_ actual: [Float], _ expected: [Float], tolerance: Float = 1e-5,
                         sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(actual.count == expected.count, sourceLocation: sourceLocation)
    for (a, e) in zip(actual, expected) {
        #expect(abs(a - e) <= tolerance, "\(actual) != \(expected)", sourceLocation: sourceLocation)
    }
}

@Suite struct InferenceSessionTests {
    @Test func runsAffineModelAndMatchesNumpy() throws {
        let session = try Fixture.affine()
        let x: [Float] = [1, 2, 3, -1, 0, 0.5]
        let out = try session.run(["x": Tensor(shape: [2, 3], data: x)])
        let y = try #require(out["y"]), z = try #require(out["z"]), argmax = try #require(out["argmax"])
        #expect(y.shape == [2, 2])
        expectClose(y.data, [22.5, 27, 2, 0])
        expectClose(y.data, Fixture.affineReference(x))
        #expect(z.shape == [2, 3])
        expectClose(z.data, x.map { $0 + 1 })
        #expect(argmax.shape == [2])
        #expect(argmax.data == [1, 0])  // int64 output converted to float exactly
    }

    @Test func dynamicBatchAxisFollowsTheInput() throws {
        let session = try Fixture.affine()
        for batch in [1, 5] {
            let x = (0..<(batch * 3)).map { Float($0) - 4 }
            let y = try #require(try session.run(["x": Tensor(shape: [batch, 3], data: x)], outputNames: ["y"])["y"])
            #expect(y.shape == [batch, 2])
            expectClose(y.data, Fixture.affineReference(x))
        }
    }

    @Test func describesInputsAndOutputs() throws {
        let session = try Fixture.affine()
        #expect(session.inputs == [TensorInfo(name: "x", shape: [-1, 3], elementType: .float)])
        #expect(session.outputs == [
            TensorInfo(name: "y", shape: [-1, 2], elementType: .float),
            TensorInfo(name: "z", shape: [-1, 3], elementType: .float),
            TensorInfo(name: "argmax", shape: [-1], elementType: .int64),
        ])
    }

    @Test func readsCustomMetadataAndProducer() throws {
        let session = try Fixture.affine()
        #expect(session.producerName == "swingmaster-tests")
        #expect(session.graphName == "affine_graph")
        #expect(session.metadata == [
            "task": "detect",
            "stride": "32",
            "imgsz": "[640, 640]",
            "names": "{0: 'person', 1: \"it's a racket\", 2: 'ball, tennis'}",
        ])
    }

    @Test func returnsOnlyRequestedOutputs() throws {
        let out = try Fixture.affine().run(["x": Tensor(shape: [1, 3], data: [0, 0, 0])], outputNames: ["argmax", "z"])
        #expect(Set(out.keys) == ["argmax", "z"])
        #expect(out["argmax"]?.data == [0])  // y = b = [0.5, -1] → index 0
    }

    @Test func zeroCopyRunMatchesDictionaryRun() throws {
        let session = try Fixture.affine()
        let x: [Float] = [2, -3, 0.25, 7, 1, -1]
        let viaDictionary = try session.run(["x": Tensor(shape: [2, 3], data: x)])
        let viaBuffer = try x.withUnsafeBufferPointer { try session.run(inputName: "x", shape: [2, 3], data: $0) }
        #expect(viaBuffer == viaDictionary)
    }

    @Test func loadsFromBytes() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Fixture.path("affine"))))
        let session = try InferenceSession(modelData: bytes)
        let y = try #require(try session.run(["x": Tensor(shape: [1, 3], data: [1, 1, 1])])["y"])
        expectClose(y.data, [9.5, 11])
    }

    @Test func staticModelRunsAndClampsNegatives() throws {
        let session = try InferenceSession(modelPath: Fixture.path("fixed_relu"))
        let x: [Float] = [-2, -1, 0, 1, 2, 3, -4, 5]
        let out = try #require(try session.run(["images": Tensor(shape: [1, 2, 2, 2], data: x)])["out"])
        #expect(out.shape == [1, 2, 2, 2])
        #expect(out.data == x.map { max(0, $0) })
    }

    @Test func concurrentRunsOnOneSessionAgree() async throws {
        let session = try Fixture.affine()
        let results = try await withThrowingTaskGroup(of: (Int, [Float]).self) { group in
            for i in 0..<8 {
                group.addTask {
                    let x: [Float] = [Float(i), 1, 2]
                    return (i, try session.run(["x": Tensor(shape: [1, 3], data: x)], outputNames: ["y"])["y"]?.data ?? [])
                }
            }
            var all: [Int: [Float]] = [:]
            for try await (i, y) in group { all[i] = y }
            return all
        }
        for i in 0..<8 { expectClose(results[i] ?? [], Fixture.affineReference([Float(i), 1, 2])) }
    }

    @Test func halfPrecisionConversion() {
        #expect(TensorConversion.halfToFloat(0x3C00) == 1)
        #expect(TensorConversion.halfToFloat(0xC000) == -2)
        #expect(TensorConversion.halfToFloat(0x7BFF) == 65504)
        #expect(TensorConversion.halfToFloat(0x0001) == Float(sign: .plus, exponent: -24, significand: 1))
        #expect(TensorConversion.halfToFloat(0x7C00) == .infinity)
    }
}
