import Foundation
import SwingTestSupport
@testable import SwingBiomech

/// Runs a track generator of `tools/` (`make_stroke_tracks.py`, `make_angle_tracks.py`: each writes
/// PREFIX.track.json, PREFIX.contacts.json and PREFIX.truth.json) and reads back what it wrote.
enum GeneratedTracks {
    static func make<Truth: Decodable>(_ script: String, prefix: String, _ arguments: [String],
                                       truth: Truth.Type) throws -> (PoseTrack, [ContactEvent], Truth) {
        _ = try Subprocess.output(ReferenceCrossCheckTests.python,
                                  [ReferenceCrossCheckTests.packageRoot.appendingPathComponent("tools/\(script)").path, prefix] + arguments)
        func data(_ suffix: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: "\(prefix).\(suffix).json")) }
        return (try MeasureIO.decodeTrack(data("track")), try MeasureIO.decodeContacts(data("contacts")),
                try JSONDecoder().decode(Truth.self, from: data("truth")))
    }
}
