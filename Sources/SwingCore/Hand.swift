/// The player's dominant (hitting) hand: the side the metrics are measured on (left-handers are
/// mirrored), what the store remembers and what the CLI and the web app ask for.
package enum Hand: String, Sendable, Codable, CaseIterable {
    case right, left
}
