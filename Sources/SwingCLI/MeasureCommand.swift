import ArgumentParser
import Foundation
import SwingBiomech
import SwingCore

/// `swingmaster measure --track TRACK.json --contacts CONTACTS.json [--hand right|left] [--json]`
struct MeasureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract: "Contact point, wrist speed and consistency from a pose track and contact times.",
        discussion: """
        TRACK is the `pose --json` shape (frames[].time, frames[].worldLandmarks: 33 × {x, y, z} in MediaPipe \
        world metres; optional score and landmarks[].visibility). CONTACTS is the `contacts --json` shape \
        (contacts[].time, confidence). Forward / lateral / height are the dominant wrist relative to the \
        pelvis in the body frame, in centimetres.
        """
    )

    @Option(help: "Pose track JSON (`swingmaster pose --json` output or the same shape from another tool).")
    var track: String

    @Option(help: "Contacts JSON (`swingmaster contacts --json` output).")
    var contacts: String

    @Option(help: "Dominant hand: right or left (wrist 16 / 15; lateral points to the hitting side).")
    var hand: Hand = .right

    @OptionGroup var options: BiomechOptions

    @Option(name: .customLong("best-confidence-frames"),
            help: "Frames searched either side of the nearest frame with --contact-frame best-confidence (default 5).")
    var bestConfidenceFrames: Int = 5

    @Option(name: .customLong("arc-sigma-frames"),
            help: "Standard deviation of the 5-frame Gaussian that smooths the displayed arc, frames (default 1.0).")
    var arcSigmaFrames: Double = 1.0

    @Flag(help: "Print {\"shots\": […], \"stats\": {…}} as JSON instead of a table.")
    var json = false

    func parameters() throws -> BiomechParameters {
        var p = try options.parameters(hand: hand)
        p.bestConfidenceSearchFrames = bestConfidenceFrames
        p.arcSmoothingSigmaFrames = arcSigmaFrames
        if let problem = p.problem { throw ValidationError(problem) }
        return p
    }

    func validate() throws {
        try OptionCheck.integer(bestConfidenceFrames, "--best-confidence-frames", 0...OptionCheck.maxFrames)
        try OptionCheck.number(arcSigmaFrames, "--arc-sigma-frames", 0...1_000, positive: true)
        _ = try parameters()
    }

    func run() throws {
        let result = try Self.measure(track: CLIError.read(track), contacts: CLIError.read(contacts),
                                      parameters: parameters())
        if json {
            try Console.out(try MeasureIO.encodeReport(result, includeImageArc: false), newline: true)
                    } else {
            try Console.line(ShotTable.render(result), terminator: "")
        }
    }

    /// Decodes, measures, and rejects results with nothing measurable.
    /// - Throws: ``BiomechError`` (invalid track 32, no contacts 31, no person 30).
    static func measure(track: Data, contacts: Data, parameters: BiomechParameters) throws -> MeasureResult {
        let poseTrack = try MeasureIO.decodeTrack(track)
        let events = try MeasureIO.decodeContacts(contacts)
        guard !events.isEmpty else { throw BiomechError.noContacts("The contacts file lists no contacts to measure.") }
        let result = BiomechAnalyzer.analyze(track: poseTrack, contacts: events, parameters: parameters)
        guard result.stats.shotCount > 0 || !result.rejected.isEmpty else {
            throw BiomechError.noPerson(
                "No person was found at any of the \(events.count) contacts (each is outside the track or its swing window has no pose).")
        }
        return result
    }
}

/// The human-readable shot table and session summary.
enum ShotTable {
    static func render(_ result: MeasureResult) -> String {
        var out = "Shot   Time s  Conf  Forward  Lateral  Height   Speed cm/s  Class\n"
        for s in result.shots {
            let head = pad("\(s.index)", 4) + pad(fmt(s.contactTime, 3), 9) + pad(fmt(s.confidence, 2), 6)   // the instant
            if let c = s.contact {
                out += head + pad(fmt(c.forwardCm, 1), 9) + pad(fmt(c.lateralCm, 1), 9) + pad(fmt(c.heightCm, 1), 8)
                    + pad(s.wristSpeedCmS.map { fmt($0, 1) } ?? "-", 13) + "  " + (s.classification?.rawValue ?? "-") + "\n"
            } else {
                out += head + "  no person\n"
            }
        }
        let st = result.stats
        out += "\nSound: \(result.soundDelay.summary)"
        let skipped = result.shots.count - st.shotCount
        out += "\nShots: \(st.shotCount)" + (skipped > 0 ? " (\(skipped) without a person, not counted)" : "")
        if let c = st.consistency { out += "   Consistency: \(fmt(c, 1)) / 100" }
        out += "\n"
        if let f = st.forward, let l = st.lateral, let h = st.height {
            out += "Forward \(fmt(f.meanCm, 1)) ± \(fmt(f.sdCm, 1)) cm   Lateral \(fmt(l.meanCm, 1)) ± \(fmt(l.sdCm, 1)) cm   "
                + "Height \(fmt(h.meanCm, 1)) ± \(fmt(h.sdCm, 1)) cm\n"
        }
        if let w = st.wristSpeed {
            out += "Wrist speed: min \(fmt(w.minCmS, 0))  max \(fmt(w.maxCmS, 0))  mean \(fmt(w.meanCmS, 0)) cm/s\n"
        }
        if !result.rejected.isEmpty {
            out += "\nNot shots (\(result.rejected.count); --no-swing-check counts them):\n"
            for r in result.rejected { out += pad(fmt(r.time, 3), 13) + "  " + r.reason + "\n" }
        }
        return out
    }

    static func fmt(_ v: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", v) }
    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }
}
