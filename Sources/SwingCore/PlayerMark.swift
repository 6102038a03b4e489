import Foundation

/// Where the player said they are in the picture (`analyze --player X,Y[@SECONDS]`, the web app's picker): a
/// point as fractions of the picture's width and height from its top-left, and the moment of the video it was
/// given at (the frame the player tapped), seconds of media time, when known.
///
/// With a moment the analysis looks at that frame first, takes the person whose hips are nearest the point, and in
/// every swing window follows the person most like them (`PersonChoice.like(position:size:)` in SwingPose: about their size,
/// nearest where they stood); without one, each window follows the person whose hips are nearest the point.
/// Its text form is `X,Y` or `X,Y@SECONDS` (``init?(text:)``, ``description``).
package struct PlayerMark: Codable, Sendable, Equatable, CustomStringConvertible {
    /// Across the picture from its left edge, 0…1.
    package var x: Double
    /// Down the picture from its top edge, 0…1.
    package var y: Double
    /// The moment the point was given at, seconds of media time; `nil` when not known.
    package var time: Double?

    /// The latest moment accepted, seconds (a day: far beyond any session, short of absurd numbers).
    package static let maxTime = 86_400.0

    package init(x: Double, y: Double, time: Double? = nil) { self.x = x; self.y = y; self.time = time }

    /// Reads `X,Y` or `X,Y@SECONDS` (spaces around the numbers allowed); `nil` when the text does not have that
    /// shape. Any numbers are read, so ``problem`` says in one sentence what is wrong with them.
    package init?(text: String) {
        let halves = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let parts = halves[0].split(separator: ",", omittingEmptySubsequences: false)
        func number(_ s: Substring) -> Double? { Double(s.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let x = number(parts[0]), let y = number(parts[1]) else { return nil }
        var time: Double?
        if halves.count == 2 {
            guard let t = number(halves[1]) else { return nil }
            time = t
        }
        self.init(x: x, y: y, time: time)
    }

    /// The point as fractions of the picture.
    package var point: Point2 { Point2(x: x, y: y) }

    /// What is wrong with this mark, in one sentence, or `nil` when both fractions are in the picture and the
    /// moment (if any) is from 0 to ``maxTime`` seconds.
    package var problem: String? {
        guard x.isFinite, y.isFinite, (0...1).contains(x), (0...1).contains(y) else {
            return "The player's point must be two fractions of the picture from 0 to 1, across then down from the top-left (e.g. 0.5,0.8; got \(Self.format(x)),\(Self.format(y)))."
        }
        if let time, !(time.isFinite && time >= 0 && time <= Self.maxTime) {
            return "The moment after @ must be seconds of the video from 0 to \(Int(Self.maxTime)) (got \(Self.format(time)))."
        }
        return nil
    }

    /// `X,Y` or `X,Y@SECONDS`, fractions with 4 decimals and seconds with 3 (what ``init?(text:)`` reads).
    package var description: String {
        let point = String(format: "%.4f,%.4f", x, y)
        return time.map { point + String(format: "@%.3f", $0) } ?? point
    }

    /// A number as a sentence shows it (3 significant digits; an absurd value is not printed whole).
    static func format(_ v: Double) -> String { String(format: "%.3g", v) }
}
