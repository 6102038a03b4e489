import Foundation

/// What OpenSim's own readers make of a TRC and a MOT file (`tools/read_opensim.py`, with the `opensim`
/// package `make setup-test` installs): the tests of the exports read our files with it, so a file OpenSim
/// refuses fails `make test`.
package enum OpenSimReader {
    package struct Read: Decodable, Sendable {
        package struct Trc: Decodable, Sendable {
            /// The inverse-kinematics tool's reader (`MarkerData`) of the same file.
            package struct Legacy: Decodable, Sendable {
                package var frames: Int, markers: Int, dataRate: Double, units: String
            }
            package var frames: Int, markers: [String], units: String, dataRate: Double, cameraRate: Double
            /// The first and last frame's times.
            package var times: [Double]
            /// [X, Y, Z] of every marker in the first frame (`nil` for NaN).
            package var first: [[Double?]]
            package var markerData: Legacy
        }
        package struct Mot: Decodable, Sendable {
            package var rows: Int, columns: [String], inDegrees: String?
            package var times: [Double]
            /// The first row's values, without the time (`nil` for NaN).
            package var first: [Double?]
        }
        package var trc: Trc?
        package var mot: Mot?
    }

    /// Reads `trc` and/or `mot` with OpenSim.
    /// - Throws: ``Subprocess/Failure`` saying to run `make setup-test` when the venv has no `opensim`, or
    ///   with OpenSim's words when it refuses a file (or takes more than 2 minutes).
    package static func read(trc: URL?, mot: URL?) throws -> Read {
        let probe = try Subprocess.run(TestFiles.python, ["-c", "import opensim"], timeout: 120)
        guard probe.succeeded else {
            throw Subprocess.Failure(description: "\(TestFiles.python) has no `opensim` (OpenSim's reader): run `make setup-test`.")
        }
        var args = [TestFiles.package("tools/read_opensim.py").path]
        if let trc { args += ["--trc", trc.path] }
        if let mot { args += ["--mot", mot.path] }
        let out = try Subprocess.run(TestFiles.python, args, timeout: 120)
        guard out.succeeded else {
            throw Subprocess.Failure(description: "OpenSim did not read the export\(out.timedOut ? " within 2 minutes" : ""): \(out.stderr)")
        }
        return try JSONDecoder().decode(Read.self, from: out.stdout)
    }
}
