import Foundation
import SwingCore
import Testing
@testable import SwingVision

@Suite struct InterpreterTennisTests {
    let tennis = TennisContactInterpreter()

    /// A 100×100 image so pixel boxes divide exactly into normalised ones.
    func frame(racket: Rect?, racketConf: Double = 0.9, ball: Rect?, ballConf: Double = 0.8,
               ballLabel: String = "sports ball", index: Int = 0, extra: [Detection] = []) -> InterpreterFrame {
        var d = extra
        if let racket { d.append(Detection(classId: 38, label: "tennis racket", confidence: racketConf, box: racket)) }
        if let ball { d.append(Detection(classId: 32, label: ballLabel, confidence: ballConf, box: ball)) }
        return InterpreterFrame(detections: d, frameIndex: index, time: Double(index) / 30, width: 100, height: 100)
    }

    @Test func overlappingBoxesAreAnIoUContact() throws {
        let r = tennis.interpret(frame(racket: Rect(x1: 10, y1: 10, x2: 30, y2: 30), ball: Rect(x1: 12, y1: 12, x2: 28, y2: 28)))
        let c = try #require(r.contact)
        #expect(c.rule == .iou)
        #expect(c.confidence == 0.8)                      // min(0.9, 0.8)
        #expect(abs(c.position.x - 0.2) < 1e-12 && abs(c.position.y - 0.2) < 1e-12)
    }

    @Test func iouExactlyAtThresholdIsNotAnIoUContact() throws {
        // Ball inside racket with area exactly 30 % of it: IoU = 0.3 exactly, so not > 0.3; the centre is
        // inside the racket box, so the proximity rule takes over with the 0.9 factor.
        let r = tennis.interpret(frame(racket: Rect(x1: 0, y1: 0, x2: 10, y2: 10), ball: Rect(x1: 0, y1: 0, x2: 10, y2: 3)))
        let c = try #require(r.contact)
        #expect(c.rule == .proximity)
        #expect(abs(c.iou - 0.3) < 1e-12)
        #expect(abs(c.confidence - 0.8 * 0.9) < 1e-12)
        // Slightly more overlap crosses the threshold.
        let above = tennis.interpret(frame(racket: Rect(x1: 0, y1: 0, x2: 10, y2: 10), ball: Rect(x1: 0, y1: 0, x2: 10, y2: 3.1)))
        #expect(above.contact?.rule == .iou)
    }

    @Test func ballCentreOnTheExpandedEdgeCounts() throws {
        // Racket 0.2…0.4; expanded edge at 0.43. Ball centred at x = 43 px (0.43) is on the edge → contact.
        let racket = Rect(x1: 20, y1: 20, x2: 40, y2: 40)
        let onEdge = tennis.interpret(frame(racket: racket, ball: Rect(x1: 42, y1: 29, x2: 44, y2: 31)))
        #expect(onEdge.contact?.rule == .proximity)
        #expect(onEdge.contact.map { abs($0.position.x - 0.43) < 1e-12 } == true)
        // Also on the top-left corner of the expanded box (0.17, 0.17).
        let corner = tennis.interpret(frame(racket: racket, ball: Rect(x1: 16, y1: 16, x2: 18, y2: 18)))
        #expect(corner.contact?.rule == .proximity)
        // 0.001 beyond the edge is apart.
        let outside = tennis.interpret(frame(racket: racket, ball: Rect(x1: 42.1, y1: 29, x2: 44.1, y2: 31)))
        #expect(outside.contact == nil)
        #expect(outside.reason == "apart")
    }

    @Test func confidencesMustExceedTheirThresholds() {
        let racket = Rect(x1: 10, y1: 10, x2: 30, y2: 30), ball = Rect(x1: 12, y1: 12, x2: 28, y2: 28)
        #expect(tennis.interpret(frame(racket: racket, racketConf: 0.5, ball: ball)).reason == "no racket")
        #expect(tennis.interpret(frame(racket: racket, racketConf: 0.5000001, ball: ball)).contact != nil)
        #expect(tennis.interpret(frame(racket: racket, ball: ball, ballConf: 0.4)).reason == "no ball")
        #expect(tennis.interpret(frame(racket: racket, ball: ball, ballConf: 0.4000001)).contact != nil)
        #expect(tennis.interpret(frame(racket: racket, ball: ball, ballLabel: "Tennis Ball")).contact != nil)
        #expect(tennis.interpret(frame(racket: racket, ball: ball, ballLabel: "orange")).reason == "no ball")
    }

    @Test func theMostConfidentRacketAndBallAreUsed() {
        // A weaker ball overlaps the racket; the best ball is far away → no contact.
        let extra = [Detection(classId: 32, label: "sports ball", confidence: 0.6, box: Rect(x1: 12, y1: 12, x2: 28, y2: 28))]
        let r = tennis.interpret(frame(racket: Rect(x1: 10, y1: 10, x2: 30, y2: 30), ball: Rect(x1: 80, y1: 80, x2: 84, y2: 84),
                                       ballConf: 0.7, extra: extra))
        #expect(r.contact == nil)
    }

    @Test func normalisationUsesBothImageSides() throws {
        // 200×100 image: racket x 100…120 px → 0.5…0.6, y 10…30 px → 0.1…0.3.
        func f(ballY: ClosedRange<Double>) -> InterpreterFrame {
            InterpreterFrame(detections: [
                Detection(classId: 38, label: "tennis racket", confidence: 0.9, box: Rect(x1: 100, y1: 10, x2: 120, y2: 30)),
                Detection(classId: 32, label: "sports ball", confidence: 0.9,
                          box: Rect(x1: 122, y1: ballY.lowerBound, x2: 126, y2: ballY.upperBound)),
            ], width: 200, height: 100)
        }
        let c = try #require(tennis.interpret(f(ballY: 18...22)).contact)
        #expect(abs(c.position.x - 0.62) < 1e-12 && abs(c.position.y - 0.2) < 1e-12)
        // Centre y 0.34 is beyond 0.3 + 0.03 (normalising y by the width would wrongly call this a contact).
        #expect(tennis.interpret(f(ballY: 33...35)).contact == nil)
    }

    @Test func consecutiveContactFramesMergeIntoEvents() {
        let hit = (racket: Rect(x1: 10, y1: 10, x2: 30, y2: 30), ball: Rect(x1: 12, y1: 12, x2: 28, y2: 28))
        var frames: [InterpreterFrame] = []
        for i in 0..<8 {
            let contact = [1, 2, 3, 6].contains(i)
            frames.append(frame(racket: hit.racket, ball: contact ? hit.ball : nil, ballConf: i == 2 ? 0.95 : 0.8, index: i))
        }
        let v = tennis.interpretVideo(frames)
        #expect(v.contacts.count == 2)
        #expect(v.frameContacts.count == 4)
        #expect(v.contacts[0].startFrame == 1 && v.contacts[0].endFrame == 3 && v.contacts[0].frameCount == 3)
        #expect(v.contacts[0].frame == 2)                // most confident frame: min(0.9, 0.95) = 0.9
        #expect(v.contacts[0].confidence == 0.9)
        #expect(v.contacts[1].frame == 6 && v.contacts[1].frameCount == 1)
    }
}
