import SwingCore

/// What an interpreter saw over one run of a model (a picture, a camera session, a video), in one line a
/// player can read on the model's card and the detections page: `peak 3× person, 1× dog · 4 crossed the
/// line`, `2 contacts`, `best hand: Full house, kings over threes`.
///
/// It is fed each frame's result as it comes (or a video's summary at once) and keeps only the tally, so
/// a camera left running for hours holds a few numbers, not its frames.
package struct InterpreterRunSummary: Sendable {
    /// The interpreter's name.
    package let interpreter: String
    private var frames = 0
    private var peak: [String: Int] = [:]
    private var contacts = 0
    private var inContact = false
    private var bestHand: (key: [Int], description: String)?
    private var crossings: LineCrossings.Summary?

    /// An empty tally for `interpreter`.
    package init(interpreter: String) { self.interpreter = interpreter }

    /// Adds one frame's result (as ``AnyDetectionInterpreter/interpret(_:)`` returns it). Results of an
    /// interpreter it does not know (passthrough, one of an app's own) only count the frame.
    package mutating func add(_ result: any Encodable & Sendable) {
        frames += 1
        switch result {
        case let r as CounterInterpreter.Result:
            for (label, n) in r.counts { peak[label] = max(peak[label] ?? 0, n) }
        case let r as TennisContactInterpreter.Result:
            // Consecutive contact frames are one contact, as the interpreter's own video summary merges them.
            if r.contact != nil, !inContact { contacts += 1 }
            inContact = r.contact != nil
        case let r as PokerHandInterpreter.Result:
            offer(hand: r.rankKey, description: r.description, cards: r.distinctCards.count)
        default:
            break
        }
    }

    /// Adds a whole video's result (as ``AnyDetectionInterpreter/interpretVideo(_:)`` returns it).
    package mutating func add(video result: any Encodable & Sendable) {
        switch result {
        case let r as CounterInterpreter.VideoResult:
            frames += r.frameCount
            for (label, n) in r.peak { peak[label] = max(peak[label] ?? 0, n) }
            if let c = r.crossings { crossings = c }
        case let r as TennisContactInterpreter.VideoResult:
            contacts += r.contacts.count
        case let r as PokerHandInterpreter.VideoResult:
            offer(hand: r.rankKey, description: r.description, cards: r.cards.count)
        default:
            break
        }
    }

    /// The latest state of the run's line-crossing counter (the counter with tracking on).
    package mutating func set(crossings summary: LineCrossings.Summary) { crossings = summary }

    private mutating func offer(hand key: [Int], description: String, cards: Int) {
        guard cards > 0 else { return }
        if let best = bestHand, !best.key.lexicographicallyPrecedes(key) { return }
        bestHand = (key, description)
    }

    /// The one line, or `nil` when there is nothing to say (no interpreter result worth a line).
    package var sentence: String? {
        var parts: [String] = []
        switch interpreter {
        case "counter":
            let top = peak.filter { $0.value > 0 }.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            if top.isEmpty {
                parts.append("nothing counted")
            } else {
                let shown = top.prefix(4).map { "\($0.value)× \($0.key)" }.joined(separator: ", ")
                parts.append("peak " + shown + (top.count > 4 ? ", …" : ""))
            }
            if let c = crossings {
                parts.append(c.total == 1 ? "1 crossed the line" : "\(c.total) crossed the line")
            }
        case "tennis-contact":
            parts.append(contacts == 1 ? "1 contact" : "\(contacts) contacts")
        case "poker":
            parts.append(bestHand.map { "best hand: \($0.description)" } ?? "no cards")
        default:
            return nil
        }
        return parts.joined(separator: " · ")
    }
}
