import SwingAudio
import SwingBiomech
import SwingCore
import Testing
@testable import SwingPipeline
@testable import SwingVision

/// The visual contact stage's pure parts: which frames it scans, the default tolerance, and how fused
/// contacts become the contacts the pose stage measures (sound delay included).
@Suite struct VisualContactTests {
    struct NoModel: FramePredictor {
        func predict(_ image: ImageBuffer) throws -> FramePrediction { FramePrediction(detections: [], timings: .init()) }
    }

    static func audio(_ time: Double, _ confidence: Double) -> ContactCandidate {
        ContactCandidate(time: time, confidence: confidence, fwhmMs: 8, symmetry: 0.7, amplitude: 0.3, peakTime: time + 0.002, snr: 12)
    }

    static func event(_ time: Double, _ confidence: Double, frame: Int) -> TennisContactInterpreter.Event {
        TennisContactInterpreter.Event(frame: frame, time: time, position: Point2(x: 0.5, y: 0.5), confidence: confidence,
                                       rule: .proximity, startFrame: frame, endFrame: frame, startTime: time,
                                       endTime: time, frameCount: 1)
    }

    @Test func defaultToleranceIsTwoProcessedFrameIntervals() {
        var o = VisualContactOptions(modelName: "m")
        #expect(abs(o.tolerance(frameRate: 60) - 0.1) < 1e-12)      // the spec's 60 fps, every 3rd frame
        #expect(abs(o.tolerance(frameRate: 10) - 0.6) < 1e-12)
        o.stride = 1
        #expect(abs(o.tolerance(frameRate: 30) - 2.0 / 30) < 1e-12)
        o.fusionTolerance = 0.05
        #expect(o.tolerance(frameRate: 60) == 0.05)                  // the flag wins
        o.stride = 0
        #expect(o.problem?.contains("stride") == true)
    }

    @Test func visualOptionsAndTheModelComeTogether() throws {
        var options = AnalysisOptions()
        options.visualContacts = VisualContactOptions(modelName: "m")
        #expect(throws: PipelineError.self) { _ = try SessionAnalyzer(options: options) }
        #expect(throws: PipelineError.self) { _ = try SessionAnalyzer(options: AnalysisOptions(), visualPredictor: NoModel()) }
        _ = try SessionAnalyzer(options: options, visualPredictor: NoModel())
    }

    @Test func windowsScopeScansOnlyTheSwingWindows() {
        let biomech = BiomechParameters()   // 1.0 s before, 0.5 s after
        #expect(VisualContactStage.framesToScan(scope: .all, audioTimes: [2, 6], clip: 0...10, biomech: biomech) == [0...10])
        let w = VisualContactStage.framesToScan(scope: .windows, audioTimes: [6, 2], clip: 0...10, biomech: biomech)
        #expect(w == [1.0...2.5, 5.0...6.5])
        #expect(VisualContactStage.framesToScan(scope: .windows, audioTimes: [], clip: 0...10, biomech: biomech).isEmpty)
    }

    @Test func fusedContactsKeepAudioMeasuresAndOrderAndAddVisualOnlyOnes() {
        let audio = [Self.audio(4.0, 0.5), Self.audio(1.0, 0.6)]
        let visual = [Self.event(1.05, 0.8, frame: 63), Self.event(2.5, 0.81, frame: 150), Self.event(3.0, 0.3, frame: 180)]
        let out = VisualContactStage.fuse(audio: audio, visual: visual, delay: 0, tolerance: 0.1, options: .init())
        #expect(out.map(\.source) == [.both, .visual, .audio])
        #expect(out.map(\.time) == [1.0, 2.5, 4.0])
        // The matched contact is the audio candidate (its index, its time) with the noisy-OR confidence.
        #expect(out[0].audioIndex == 1 && out[0].visualIndex == 0)
        #expect(abs(out[0].confidence - (1 - 0.4 * 0.2)) < 1e-12)
        #expect(abs((out[0].offset ?? 0) - 0.05) < 1e-12)
        // A visual-only contact names no audio candidate; the unconfident 3.0 s event is dropped.
        #expect(out[1].audioIndex == nil && out[1].confidence == 0.81)
        #expect(out[2].confidence == 0.5 && out[2].offset == nil)
    }

    @Test func soundDelayIsRemovedForMatchingAndAddedBackForVisualOnlyContacts() {
        // The ball is heard 60 ms after it is seen (20 m away). With a 40 ms tolerance the pair only
        // matches once the delay is taken off the audio time.
        let audio = [Self.audio(2.06, 0.5)]
        let visual = [Self.event(2.0, 0.7, frame: 120), Self.event(5.0, 0.9, frame: 300)]
        let noDelay = VisualContactStage.fuse(audio: audio, visual: visual, delay: 0, tolerance: 0.04, options: .init())
        #expect(noDelay.map(\.source) == [.visual, .audio, .visual])   // 2.0 seen, 2.06 heard: two hits
        let out = VisualContactStage.fuse(audio: audio, visual: visual, delay: 0.06, tolerance: 0.04, options: .init())
        #expect(out.map(\.source) == [.both, .visual])
        #expect(out[0].time == 2.06)   // the audio clock
        #expect(abs(out[0].offset ?? 1) < 1e-9)
        // Visual-only: reported on the audio clock, so the biomechanics (t − delay) measure at the seen frame.
        #expect(abs(out[1].time - 5.06) < 1e-12)
    }

    @Test func visualOnlyThresholdAboveOneKeepsOnlyAudioEvidence() {
        var options = ContactFusionOptions()
        options.visualOnlyMinimumConfidence = 1.01
        let out = VisualContactStage.fuse(audio: [Self.audio(1, 0.4)], visual: [Self.event(3, 0.99, frame: 1)],
                                          delay: 0, tolerance: 0.1, options: options)
        #expect(out.map(\.source) == [.audio])
    }
}
