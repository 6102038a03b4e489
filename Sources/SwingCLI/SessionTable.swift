import Foundation
import SwingBiomech
import SwingCore
import SwingPipeline

/// Text renderings of an analysed session for the terminal and CSV export.
enum SessionTable {
    /// How the windows were posed, e.g. "every 4th frame away from contacts, 2 workers".
    static func sampling(_ analysis: SessionAnalysis) -> String {
        let rate = analysis.poseOuterStep <= 1 ? "every frame" : "every \(ordinal(analysis.poseOuterStep)) frame away from contacts"
        return "\(rate), \(analysis.poseWorkers) worker\(analysis.poseWorkers == 1 ? "" : "s")"
    }

    private static func ordinal(_ n: Int) -> String {
        let suffix = (11...13).contains(n % 100) ? "th" : (n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th")
        return "\(n)\(suffix)"
    }

    /// The one text rendering of a session (`analyze` and `sessions show`): headline, means ± SD, and
    /// one line per shot.
    static func text(_ doc: SessionDocument) -> String {
        let s = doc.session
        let st = s.stats
        func axis(_ a: AxisStats?) -> String {
            a.map { String(format: "%6.1f ± %4.1f cm", $0.meanCm, $0.sdCm) } ?? "–"
        }
        var lines: [String] = []
        let idText = s.id.map { "Session \($0)" } ?? "Session (not stored)"
        lines.append("\(idText) — \(URL(fileURLWithPath: s.file).lastPathComponent), \(String(format: "%.1f", s.duration)) s at \(String(format: "%.0f", s.fps)) fps, \(s.hand.rawValue)-handed, \(SessionsFormat.date(s.createdAt))")
        let notShots = s.rejectedContacts?.count ?? 0
        lines.append("  contacts heard: \(s.contactsHeard), measured shots: \(st.shotCount)"
                     + (notShots > 0 ? ", not shots: \(notShots) (listed below with why)" : ""))
        if let d = s.soundDelay { lines.append("  sound:    \(d.summary)") }
        if let p = s.player { lines.append("  player:   \(playerLine(p))") }
        if let v = s.visualDetector { lines += visualLines(v) }
        if let c = st.consistency { lines.append(String(format: "  consistency:   %.1f / 100", c)) }
        lines.append("  forward:  \(axis(st.forward))")
        lines.append("  lateral:  \(axis(st.lateral))")
        lines.append("  height:   \(axis(st.height))")
        if let w = st.wristSpeed {
            lines.append(String(format: "  wrist speed: mean %.0f cm/s (min %.0f, max %.0f)", w.meanCmS, w.minCmS, w.maxCmS))
        }
        if let a = st.angles { lines.append("  body at contact: " + bodySpread(a)) }
        for stroke in StrokeType.allCases {
            guard let g = st.byStroke?[stroke.rawValue] else { continue }
            let consistency = g.consistency.map { String(format: "consistency %.1f", $0) } ?? "consistency –"
            lines.append("  \(pad(stroke.rawValue + ":", 10)) \(g.shotCount) shot\(g.shotCount == 1 ? "" : "s"), \(consistency), forward \(axis(g.forward).trimmingCharacters(in: .whitespaces))")
        }
        lines.append("")
        // The time is the shot's instant on the video clock (heard time − the sound delay).
        lines.append("  shot   time s  conf  forward  lateral  height  speed cm/s  class     stroke")
        for shot in s.shots {
            if shot.status == .ok, let c = shot.contact {
                let speed = shot.wristSpeedCmS.map { String(format: "%10.0f", $0) } ?? "         –"
                lines.append(String(format: "  %4d %8.3f  %4.2f  %7.1f  %7.1f  %6.1f  ", shot.index, shot.contactTime, shot.confidence,
                                    c.forwardCm, c.lateralCm, c.heightCm)
                             + speed + "  " + pad(shot.classification?.rawValue ?? "–", 8) + "  "
                             + (shot.stroke?.rawValue ?? "–") + sourceNote(shot))
                if let a = shot.angles { lines.append("                 " + bodyLine(a)) }
            } else {
                lines.append(String(format: "  %4d %8.3f  %4.2f  no person in the swing window", shot.index, shot.contactTime, shot.confidence)
                             + sourceNote(shot))
            }
        }
        if let rejected = s.rejectedContacts, !rejected.isEmpty {
            lines.append("")
            lines.append("  not shots (\(rejected.count)):")
            for r in rejected { lines.append(String(format: "       %8.3f  ", r.time) + r.reason) }
        }
        return lines.joined(separator: "\n")
    }

    /// A shot's body measures in one compact line: "elbow 32°, knee 24°, …, stance 1.35×".
    static func bodyLine(_ a: BodyAngles) -> String {
        BodyMeasure.allCases.compactMap { m in a[m].map { "\(m.shortLabel) \(m.formatted($0))" } }.joined(separator: ", ")
    }

    /// The session's body measures as mean ± SD: "elbow 32 ± 8°, …".
    static func bodySpread(_ a: BodyMeasureStats) -> String {
        BodyMeasure.allCases.compactMap { m in
            a[m].map { m.isAngle ? String(format: "%@ %.0f ± %.0f°", m.shortLabel, $0.mean, $0.sd)
                                 : String(format: "%@ %.2f ± %.2f×", m.shortLabel, $0.mean, $0.sd) }
        }.joined(separator: ", ")
    }

    /// `analyze`'s summary: the session's text and what each stage cost.
    static func summary(_ doc: SessionDocument, analysis: SessionAnalysis) -> String {
        let stages = AnalysisStage.allCases.compactMap { st in analysis.stageSeconds[st].map { "\(st.rawValue) \(String(format: "%.2f", $0)) s" } }
        return text(doc) + "\n\n  timings: " + stages.joined(separator: ", ")
            + " — \(analysis.framesPosed) frames posed (\(Self.sampling(analysis))), detector ran on \(analysis.detectorRuns)"
            + "\n" + poseStageLine(analysis.poseTimes, workers: analysis.poseWorkers)
    }

    /// The pose stage's parts: CPU seconds of the workers' own threads / wall seconds, summed over the workers.
    static func poseStageLine(_ t: PoseStageTimes, workers: Int) -> String {
        func pair(_ s: StageTime) -> String { String(format: "%.2f / %.2f", s.cpu, s.wall) }
        return "  pose stage (CPU s / wall s, summed over \(workers) worker\(workers == 1 ? "" : "s")): "
            + "decode \(pair(t.decode)) (\(t.framesDecoded) frames decoded), RGB conversion \(pair(t.conversion)), "
            + "pose inference \(pair(t.inference)), pre/post-processing \(pair(t.prePost))"
    }

    /// The detector's lines of the summary: contacts per source and what the detector cost.
    static func visualLines(_ v: SessionDocument.VisualDetector) -> [String] {
        let c = v.sources
        return [
            "  contacts fused: \(c.values.reduce(0, +)) — both \(c["both"] ?? 0), audio only \(c["audio"] ?? 0), visual only \(c["visual"] ?? 0) "
                + "(\(v.visualEvents.count) visual event(s), tolerance \(String(format: "%.3f", v.toleranceSeconds)) s)",
            "  detector \(v.model): \(v.framesProcessed) frames (scope \(v.scope.rawValue), every \(v.stride)), "
                + String(format: "%.1f ms/frame model (%.1f pre, %.1f inference, %.1f post), stage %.2f s",
                         v.preMs + v.inferenceMs + v.postMs, v.preMs, v.inferenceMs, v.postMs, v.seconds),
        ]
    }

    /// Whom the session measured when the player said (`--player`, the web app's picker), in words.
    static func playerLine(_ p: PlayerMark) -> String {
        let at = String(format: "%.0f%% across and %.0f%% down the picture", p.x * 100, p.y * 100)
        guard let t = p.time else { return "the person nearest \(at) (--player \(p))" }
        return "the person you pointed at, \(at) at \(String(format: "%.2f", t)) s (--player \(p))"
    }

    /// `value` left-aligned in `width` columns.
    static func pad(_ value: String, _ width: Int) -> String {
        value.padding(toLength: max(width, value.count), withPad: " ", startingAt: 0)
    }

    /// "  [both +40 ms]" after a shot line when a detector ran.
    static func sourceNote(_ shot: Shot) -> String {
        guard let source = shot.source else { return "" }
        return "  [\(source.rawValue)" + (shot.visualOffsetMs.map { String(format: " %+.0f ms", $0) } ?? "") + "]"
    }
}

