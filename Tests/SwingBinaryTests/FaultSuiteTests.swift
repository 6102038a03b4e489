import Foundation
import SwingTestSupport
import SwingCore
import SwingStore
import Testing

/// The fault suite: every command against the hostile inputs of `tools/make_hostile_inputs.py` (edited
/// model metadata, a zip bomb, deep JSON, truncated and fake media, a damaged database). Each run must
/// end by itself within its time limit, without a signal, with the expected status; and a failed run
/// leaves every input and the store exactly as they were.
@Suite(.serialized) struct FaultSuiteTests {
    static let root = TestFiles.packageRoot
    static let photo = root.appendingPathComponent("Tests/SwingPoseTests/Fixtures/messi5.png").path
    static let goodModel = root.appendingPathComponent("Tests/SwingVisionTests/Fixtures/yolo/tiny26-detect.onnx").path

    struct Case: Sendable, CustomTestStringConvertible {
        var args: [String]
        /// Acceptable exit statuses.
        var expected: Set<Int32>
        /// Use the damaged database as SWINGMASTER_HOME.
        var damagedHome = false
        var testDescription: String { args.joined(separator: " ") }
    }

    static let cases: [Case] = {
        let unreadableModel: Set<Int32> = [StatusCode.modelUnreadable]
        let unsupportedModel: Set<Int32> = [StatusCode.modelUnsupported]
        var all: [Case] = []
        for m in ["deep-names", "huge-kpt", "huge-imgsz", "many-classes"] {
            all.append(Case(args: ["detect", photo, "--model", "@\(m).onnx", "--no-store"], expected: unsupportedModel))
            all.append(Case(args: ["models", "add", "@\(m).onnx"], expected: unreadableModel))
            all.append(Case(args: ["analyze", "@truncated.mp4", "--detector", "@\(m).onnx", "--no-store", "--hand", "right"],
                            expected: unsupportedModel))
        }
        all.append(Case(args: ["models", "add", "@bomb.zip"], expected: unreadableModel))
        all.append(Case(args: ["measure", "--track", "@deep.json", "--contacts", "@deep.json"], expected: [StatusCode.invalidTrack]))
        all.append(Case(args: ["interpret", "counter", "--detections", "@deep.json"], expected: [StatusCode.invalidInterpreterInput]))
        for media in ["empty.mp4", "text.mp4"] {
            for command in [["contacts"], ["pose"], ["analyze", "--no-store", "--hand", "right"], ["detect", "--model", goodModel, "--no-store"]] {
                all.append(Case(args: [command[0], "@\(media)"] + command.dropFirst(), expected: [StatusCode.unreadableMedia]))
            }
        }
        // A truncated file decodes in part: 1.4 s of a stated 12 s is a short file for the commands that
        // read the sound (HonestMediaTests covers every cut); frame commands work on what decodes.
        for command in [["contacts"], ["analyze", "--hand", "right"]] {
            all.append(Case(args: [command[0], "@truncated.mp4"] + command.dropFirst(), expected: [StatusCode.mediaTooShort]))
        }
        for command in [["pose"], ["detect", "--model", goodModel, "--no-store"]] {
            all.append(Case(args: [command[0], "@truncated.mp4"] + command.dropFirst(),
                            expected: [0, StatusCode.unreadableMedia, StatusCode.noPerson]))
        }
        for command in [["sessions", "list"], ["sessions", "show", "1"], ["models", "list"], ["analyze", photo, "--hand", "right"]] {
            all.append(Case(args: command, expected: [StatusCode.databaseError, StatusCode.unreadableMedia, StatusCode.noAudioTrack],
                            damagedHome: true))
        }
        return all
    }()

    /// The generated inputs, made once per run into the build folder (git-ignored, replaced each run).
    static let inputs: Result<URL, any Error> = Result {
        let dir = root.appendingPathComponent(".build/hostile-inputs")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        _ = try Subprocess.output("python3", [root.appendingPathComponent("tools/make_hostile_inputs.py").path, dir.path])
        return dir
    }

    /// Sessions in the store of `home` (0 when there is no database).
    static func storedSessions(_ home: URL) async throws -> Int {
        guard FileManager.default.fileExists(atPath: home.appendingPathComponent(AppDatabase.fileName).path) else { return 0 }
        return try await AppDatabase.open(home: home).sessions().count
    }

    /// SHA-256 of every file below `dir`, by relative path.
    static func fingerprint(_ dir: URL) throws -> [String: String] {
        var out: [String: String] = [:]
        let e = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = e?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            out[String(url.path.dropFirst(dir.path.count))] = try SHA256.hex(ofFile: url.path)
        }
        return out
    }

    @Test(arguments: cases)
    func aHostileInputEndsWithItsStatusAndChangesNothing(_ c: Case) async throws {
        let inputs = try Self.inputs.get()
        let home = try TestFiles.temporaryDirectory("fault-home")
        defer { try? FileManager.default.removeItem(at: home) }
        if c.damagedHome {
            try FileManager.default.copyItem(at: inputs.appendingPathComponent("not-a-db/swingmaster.sqlite"),
                                             to: home.appendingPathComponent("swingmaster.sqlite"))
        }
        let args = c.args.map { $0.hasPrefix("@") ? inputs.appendingPathComponent(String($0.dropFirst())).path : $0 }
        let before = try Self.fingerprint(inputs)
        let damagedBefore = try? SHA256.hex(ofFile: home.appendingPathComponent("swingmaster.sqlite").path)
        let out = try await SwingmasterBinary.run(args, home: home)
        #expect(!out.timedOut, "hang")
        #expect(!out.signalled, "signal \(out.status)\n\(out.stderr)")
        #expect(c.expected.contains(out.status), "exit \(out.status), expected \(c.expected.sorted())\n\(out.stderr)")
        if out.status != 0 {
            #expect(ErrorSentence.problem(in: out.stderr) == nil, "\(ErrorSentence.problem(in: out.stderr) ?? ""): \(out.stderr)")
            if c.damagedHome {
                // A file that is not a database is never overwritten or migrated away.
                #expect(try SHA256.hex(ofFile: home.appendingPathComponent("swingmaster.sqlite").path) == damagedBefore)
            } else {
                #expect(try await Self.storedSessions(home) == 0, "a failed run stored a session")
                let models = (try? FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("models").path)) ?? []
                #expect(models.isEmpty, "a refused model left files: \(models)")
            }
        }
        #expect(try Self.fingerprint(inputs) == before, "an input changed")
    }
}
