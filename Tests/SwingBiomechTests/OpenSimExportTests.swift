import Foundation
import SwingTestSupport
import Testing
@testable import SwingBiomech
import SwingCore

/// The TRC and MOT exports (issue #41) read back by OpenSim's own readers (`tools/read_opensim.py`: the
/// `opensim` package from PyPI, installed by `make setup-test`), so a file OpenSim refuses fails `make test`.
struct OpenSimExportTests {
    static var available: Bool { FileManager.default.isExecutableFile(atPath: ReferenceCrossCheckTests.python) }

    @Test("OpenSim reads the TRC and MOT of a track: frames, rate, the 33 markers, the axes, the measures",
          .enabled(if: available, "needs the Python venv (make setup-test)"), arguments: [("right", 30.0), ("left", 240.0)])
    func openSimReadsTheExports(hand: String, fps: Double) throws {
        let dir = try TestFiles.temporaryDirectory("opensim")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (track, _, _) = try BodyMeasureTests.tracks(fps: fps, hand: hand, size: 0.9, seed: 7, dir: dir)
        // A frame without a person is left out of both files; the gap keeps its time.
        var samples = track.samples
        samples[3] = PoseSample(time: samples[3].time, world: [])
        let gapped = try PoseTrack(samples: samples)
        let h = Hand(rawValue: hand) ?? .right
        let trc = dir.appendingPathComponent("session.trc"), mot = dir.appendingPathComponent("session.mot")
        try #require(OpenSimExport.trc(gapped, rate: fps, name: "session.trc")).write(to: trc, atomically: true, encoding: .utf8)
        try #require(OpenSimExport.mot(gapped, hand: h, name: "session.mot")).write(to: mot, atomically: true, encoding: .utf8)
        let read = try OpenSimReader.read(trc: trc, mot: mot)
        let posed = gapped.samples.filter(\.hasPose)

        let t = try #require(read.trc)
        #expect(t.frames == posed.count && t.markerData.frames == posed.count)
        #expect(t.markers == BodyLandmark.allCases.map(\.name) && t.markerData.markers == BodyLandmark.count)
        #expect(t.dataRate == fps && t.cameraRate == fps && t.markerData.dataRate == fps)
        #expect(t.units == "m" && t.markerData.units == "m")
        #expect(abs(t.times[0] - posed[0].time) < 1e-6 && abs(t.times[1] - (posed.last?.time ?? 0)) < 1e-6)
        // OpenSim's axes: X forward (BlazePose's z), Y up (−y), Z right (x), metres.
        for (i, p) in posed[0].world.enumerated() {
            let xyz = t.first[i].map { $0 ?? .nan }
            #expect(abs(xyz[0] - p.z) < 1e-6 && abs(xyz[1] + p.y) < 1e-6 && abs(xyz[2] - p.x) < 1e-6)
        }
        // Up is up: the head above the feet.
        #expect(t.first[BodyLandmark.nose.index][1] ?? 0 > t.first[BodyLandmark.leftHeel.index][1] ?? 0)

        let m = try #require(read.mot)
        #expect(m.rows == posed.count)
        #expect(m.columns == BodyMeasure.allCases.map(\.rawValue))
        #expect(m.inDegrees == "yes")
        let frame = try #require(BodyFrame(world: posed[0].world, hand: h))
        let first = BodyAngles(world: posed[0].world, frame: frame, hand: h)
        for (i, measure) in BodyMeasure.allCases.enumerated() {
            #expect(abs((m.first[i] ?? .nan) - (first[measure] ?? .infinity)) < 1e-5, "\(measure)")
        }
    }

    @Test("One swing's file keeps exactly the posed frames inside its window, with their own times",
          .enabled(if: available, "needs the Python venv (make setup-test)"), arguments: [(2, 9), (0, 0), (10, 40)])
    func oneSwingKeepsItsWindow(from: Int, to: Int) throws {
        let dir = try TestFiles.temporaryDirectory("opensim-window")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (track, _, _) = try BodyMeasureTests.tracks(fps: 60, hand: "right", size: 1.0, seed: 3, dir: dir)
        let samples = track.samples
        let window = samples[from].time...samples[min(to, samples.count - 1)].time
        let inside = samples.filter { window.contains($0.time) && $0.hasPose }
        let trc = try #require(OpenSimExport.trc(track, rate: 60, name: "w.trc", during: window))
        // The rows follow the header's blank line.
        let rows = try #require(trc.components(separatedBy: "\n\n").last).split(separator: "\n")
        #expect(rows.count == inside.count)
        #expect(rows.map { Double($0.split(separator: "\t")[1]) ?? .nan }.enumerated().allSatisfy { abs($1 - inside[$0].time) < 1e-6 })
        let mot = try #require(OpenSimExport.mot(track, hand: .right, name: "w.mot", during: window))
        #expect(mot.contains("nRows=\(inside.count)\n"))
        // A window between frames holds none: no file, as for a track with nobody in it.
        let between = (samples[0].time + samples[1].time) / 2
        #expect(OpenSimExport.trc(track, rate: 60, name: "e.trc", during: between...between) == nil)
        #expect(OpenSimExport.mot(track, hand: .right, name: "e.mot", during: between...between) == nil)
    }

    @Test("A track with nobody in it gives no file: OpenSim's TRC reader never returns from one without frames")
    func anEmptyTrackGivesNoFile() throws {
        let track = try PoseTrack(samples: [PoseSample(time: 0, world: []), PoseSample(time: 0.1, world: [])])
        #expect(OpenSimExport.trc(track, rate: 30, name: "e.trc") == nil)
        #expect(OpenSimExport.mot(track, hand: .right, name: "e.mot") == nil)
    }
}
