import Foundation
import SwingCLI
import SwingTestSupport
import SwingCore
import Testing

/// Every numeric option of every command, with extreme and random values: the process exits on its own
/// (no signal, no hang) with 0 or a documented status code, and never accepts a non-finite or absurdly
/// large number. The flags are discovered from the binary (`--experimental-dump-help`), so a new flag is
/// covered without editing this file. A value the command line itself refuses (parsing and each command's
/// `validate()`, exactly as `main` runs them) is checked in process: its status and sentence are the ones the
/// binary would print before doing anything. Every value that parses is run by the real binary.
@Suite struct NumericOptionPropertyTests {
    /// Values nothing may accept, by class: not a number or infinite, beyond any physical quantity, beyond a
    /// 64-bit integer.
    static let refused = [["nan", "inf", "-inf"], ["1e300", "-1e300"], ["1e19", "-1e19", "9223372036854775807"]]
    /// Values at the edges that may be accepted or refused.
    static let edges = ["0", "-1", "1", "0.5", "1e-300", "2147483648"]
    /// The values flag number `n` is given: one of each refused class and two edges, taken in turn so that
    /// across a command's flags every value is tried (each launch costs the binary's start-up and an accepted
    /// one a whole command: all 14 values on every flag took 5 minutes), and two seeded random numbers.
    static func values(forFlag n: Int) -> [(String, mustRefuse: Bool)] {
        refused.map { ($0[n % $0.count], true) }
            + [edges[(2 * n) % edges.count], edges[(2 * n + 1) % edges.count]].map { ($0, false) }
            + randomValues(seed: UInt64(n + 1) &* 7919, count: 2).map { ($0, false) }
    }
    /// Codes a command may exit with: success, usage (64), and the README's table.
    static let documented: Set<Int32> = [0, 10, 11, 12, 13, 14, 15, 16, 17, 20, 21, 22, 23, 24, 25, 30, 31, 32,
                                         40, 41, 50, 51, 52, 53, 60, 64]
    static let seconds = 60.0

    struct Command: Sendable, CustomTestStringConvertible {
        var path: [String]
        var base: [String]
        var testDescription: String { path.joined(separator: " ") }
    }

    static let root = TestFiles.packageRoot
    static let sample = root.appendingPathComponent("Samples/demo_session.mp4").path
    static let photo = root.appendingPathComponent("Tests/SwingPoseTests/Fixtures/messi5.png").path
    static let model = root.appendingPathComponent("Tests/SwingVisionTests/Fixtures/yolo/tiny26-detect.onnx").path

    /// Cheapest first: a flag shared by several commands is exercised once, in the cheapest.
    /// `serve` is left out on purpose: an accepted value starts a server that runs until stopped (its
    /// numbers are checked by the server's own tests).
    static let commands = [
        Command(path: ["contacts"], base: [sample]),
        Command(path: ["pose"], base: [photo]),
        Command(path: ["detect"], base: [photo, "--model", model, "--no-store"]),
        Command(path: ["models", "set"], base: ["no-such-model"]),
        Command(path: ["measure"], base: ["--track", "@track", "--contacts", "@contacts"]),
        Command(path: ["analyze"], base: [sample, "--no-store", "--duration", "6", "--min-duration", "5"]),
    ]

    /// Runs the binary on `home`, in `home` (a probe such as `--save word` writes a file named `word`: it
    /// once landed in the checkout), with a time limit (a hang is killed and reported).
    /// What `swingmaster args` does before running anything, read in process as `SwingmasterCommand.runAndExit`
    /// reads it: `nil` when the arguments parse and validate (the command would run), else its exit status and
    /// what it prints on standard error.
    static func refusal(_ args: [String]) -> (status: Int32, stderr: String)? {
        do {
            _ = try SwingmasterCommand.parseAsRoot(args)
            return nil
        } catch let error as any UserFacingError {
            return (error.statusCode, "error: \(error.description)\n")
        } catch {
            return (SwingmasterCommand.exitCode(for: error).rawValue, SwingmasterCommand.fullMessage(for: error))
        }
    }

    /// Each command's long option names, asked of the binary once per run.
    static let names: Result<[String: [String]], any Error> = Result {
        try Dictionary(uniqueKeysWithValues: commands.map { ($0.testDescription, try dumpedOptionNames($0)) })
    }

    /// The long option names of `command` (from the binary's own description of itself).
    static func optionNames(_ command: Command) throws -> [String] {
        try names.get()[command.testDescription] ?? []
    }

    static func dumpedOptionNames(_ command: Command) throws -> [String] {
        let dump = try SwingmasterBinary.run(command.path + ["--experimental-dump-help"])
        struct Dump: Decodable {
            struct Cmd: Decodable { var arguments: [Arg]? }
            struct Arg: Decodable { var kind: String; var preferredName: Name? }
            struct Name: Decodable { var kind: String; var name: String }
            var command: Cmd
        }
        let args = try JSONDecoder().decode(Dump.self, from: dump.data).command.arguments ?? []
        return args.filter { $0.kind == "option" }.compactMap { $0.preferredName }.filter { $0.kind == "long" }.map(\.name)
    }

    /// The options of `command` that refuse a word where a number belongs and that no cheaper command
    /// in ``commands`` has (a shared option is exercised once, in the cheapest command).
    static func numericOptions(_ command: Command, home: URL) throws -> [String] {
        var cheaper = Set<String>()
        for other in commands.prefix(while: { $0.path != command.path }) { cheaper.formUnion(try optionNames(other)) }
        let base = try materialise(command.base, home)
        return try optionNames(command).filter { !cheaper.contains($0) }.filter { name in
            guard let probe = refusal(command.path + base + ["--\(name)", "word"]) else { return false }
            return probe.status == 64 && probe.stderr.contains("invalid for")
        }
    }

    static func materialise(_ base: [String], _ home: URL) throws -> [String] {
        try base.map { arg in
            switch arg {
            case "@track":
                let url = home.appendingPathComponent("track.json")
                try MeasureCommandTests.trackJSON().write(to: url)
                return url.path
            case "@contacts":
                let url = home.appendingPathComponent("contacts.json")
                try MeasureCommandTests.contactsJSON.write(to: url)
                return url.path
            default: return arg
            }
        }
    }

    /// Seeded log-uniform values of both signs, so a run is reproducible.
    static func randomValues(seed: UInt64, count: Int) -> [String] {
        var state = seed
        func next() -> Double {
            state = state &+ 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        return (0..<count).map { _ in
            let magnitude = pow(10, next() * 12 - 6)
            return String(next() < 0.5 ? -magnitude : magnitude)
        }
    }

    @Test(arguments: commands)
    func everyNumericOptionEndsWithADocumentedCode(_ command: Command) async throws {
        let home = try TestFiles.temporaryDirectory("numeric-options")
        defer { try? FileManager.default.removeItem(at: home) }
        let base = try Self.materialise(command.base, home)
        let flags = try Self.numericOptions(command, home: home)
        for (n, flag) in flags.enumerated() {
            for (value, mustRefuse) in Self.values(forFlag: n) {
                let args = command.path + base + ["--\(flag)", value]
                let what = args.joined(separator: " ")
                let out: (status: Int32, stderr: String)
                if let refused = Self.refusal(args) {
                    out = refused
                } else {
                    let ran = try await SwingmasterBinary.run(args, home: home, timeout: Self.seconds)
                    #expect(!ran.timedOut, "hang: \(what)")
                    #expect(!ran.signalled, "signal \(ran.status): \(what)\n\(ran.stderr)")
                    out = (ran.status, ran.stderr)
                }
                #expect(Self.documented.contains(out.status), "undocumented exit \(out.status): \(what)\n\(out.stderr)")
                if mustRefuse { #expect(out.status != 0, "accepted \(value): \(what)") }
                if out.status != 0 {
                    #expect(ErrorSentence.problem(in: out.stderr) == nil, "\(ErrorSentence.problem(in: out.stderr) ?? ""): \(what)\n\(out.stderr)")
                }
            }
        }
        // The discovery must find the flags each command is known to have (else this test is vacuous).
        let known: [String: Set<String>] = [
            "contacts": ["start", "duration", "envelope-window-ms", "noise-window-s", "threshold-factor"],
            "pose": ["min-pose-score", "nms-iou"], "detect": ["conf", "iou", "threads", "max-det"],
            "measure": ["best-confidence-frames", "sound-delay-ms"], "analyze": ["pose-workers", "pose-fps", "max-pose-side"],
        ]
        #expect(Set(flags).isSuperset(of: known[command.testDescription] ?? []), "found \(flags)")
    }
}
