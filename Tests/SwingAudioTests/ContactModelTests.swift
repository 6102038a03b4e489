import SwingCore
import Foundation
import Testing
@testable import SwingAudio
import SwingTestSupport

/// The parts of a learnt contact model (docs/contacts.md, "Learning the player's own racket"): the sound
/// events and their features, the trees, the saved file. The sweep through the phone chains is
/// `ContactModelChainTests`.
struct ContactModelTests {
    static func track(_ seed: UInt64, _ condition: SyntheticSessionAudio.Condition = .mixed, seconds: Double = 30)
        -> SyntheticSessionAudio.Track
    {
        SyntheticSessionAudio(duration: seconds, seed: seed, condition: condition).render()
    }

    @Test("Every hit has a sound event within ±50 ms, whatever the condition")
    func eventsCoverTheHits() throws {
        for condition in SyntheticSessionAudio.Condition.all {
            let t = Self.track(7, condition)
            let events = try SoundEvents.extract(samples: t.samples, sampleRate: t.sampleRate)
            let missed = t.contactTimes.filter { c in !events.contains { abs($0.time - c) <= 0.050 } }
            #expect(missed.isEmpty, "\(condition.name): no event near \(missed)")
            #expect(events.allSatisfy { $0.features.count == SoundEvents.featureCount && $0.features.allSatisfy(\.isFinite) })
            #expect(zip(events, events.dropFirst()).allSatisfy { $0.time < $1.time })
        }
    }

    @Test("Gain changes no event and no feature (what a phone's gain riding does between sessions)",
          arguments: [0.01, 0.2, 5.0] as [Float])
    func gainInvariant(gain: Float) throws {
        let t = Self.track(11, .ambience, seconds: 20)
        let a = try SoundEvents.extract(samples: t.samples, sampleRate: t.sampleRate)
        let b = try SoundEvents.extract(samples: t.samples.map { $0 * gain }, sampleRate: t.sampleRate)
        #expect(a.map(\.time) == b.map(\.time))
        let worst = zip(a, b).flatMap { zip($0.features, $1.features).map { abs($0 - $1) } }.max() ?? 0
        #expect(worst < 0.01, "a feature moved by \(worst) at gain \(gain)")
    }

    @Test("Audio too short for an event, silence, and bad input")
    func edges() throws {
        #expect(try SoundEvents.extract(samples: [Float](repeating: 0, count: 1000), sampleRate: 44_100).isEmpty)
        #expect(try SoundEvents.extract(samples: [Float](repeating: 0, count: 441_000), sampleRate: 44_100).isEmpty)
        #expect(throws: AudioError.self) { try SoundEvents.extract(samples: [0, .nan] + [Float](repeating: 0, count: 50_000), sampleRate: 44_100) }
        #expect(throws: AudioError.self) { try SoundEvents.extract(samples: [Float](repeating: 0, count: 50_000), sampleRate: 4_000) }
        // Every supported rate gives the same number of features; an 8 kHz recording has no 8–16 kHz band.
        for rate in [8_000.0, 16_000, 22_050, 32_000, 48_000, 96_000] {
            let t = SyntheticSessionAudio(duration: 10, sampleRate: rate, seed: 3, condition: .clean).render()
            let events = try SoundEvents.extract(samples: t.samples, sampleRate: rate)
            #expect(!events.isEmpty && events.allSatisfy { $0.features.count == SoundEvents.featureCount }, "\(rate) Hz")
        }
    }

    @Test("Trees learn a rule from rows and apply it to rows they have not seen; the same rows give the same trees")
    func treesLearnARule() {
        var rng = SplitMix64(seed: 5)
        func rows(_ n: Int) -> ([[Float]], [Bool]) {
            let x = (0..<n).map { _ in (0..<6).map { _ in Float(rng.uniform(-1, 1)) } }
            // A rare answer (about 12 %), on two features of six, as hits among other sounds.
            return (x, x.map { $0[1] > 0.4 && $0[4] < -0.2 })
        }
        let (train, labels) = rows(2000), (test, truth) = rows(2000)
        var options = BoostedTrees.Options()
        options.iterations = 60
        let trees = BoostedTrees.train(rows: train, labels: labels, options: options)
        let correct = zip(test, truth).filter { (trees.probability($0) >= 0.5) == $1 }.count
        #expect(Double(correct) / 2000 >= 0.97, "\(correct) of 2000")
        print("trees: \(correct) of 2000 unseen rows answered right, \(truth.filter { $0 }.count) of them yes")
        #expect(trees == BoostedTrees.train(rows: train, labels: labels, options: options))
        #expect(trees.isWellFormed)
        // One answer only: a constant, not a crash.
        let constant = BoostedTrees.train(rows: train, labels: labels.map { _ in false })
        #expect(constant.trees.isEmpty && constant.probability(test[0]) < 0.01)
    }

    @Test("A model is saved and read back unchanged, and a damaged or foreign file is one sentence with code 21")
    func savedModels() throws {
        let t = Self.track(21, .ambience)
        let model = try ContactModel.train([.init(samples: t.samples, sampleRate: t.sampleRate, contacts: t.contactTimes)])
        let dir = try TestFiles.temporaryDirectory("contact-model")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("m.json").path
        try model.data().write(to: URL(fileURLWithPath: path))
        #expect(try ContactModel.read(from: path) == model)

        let json = try #require(try JSONSerialization.jsonObject(with: model.data()) as? [String: Any])
        func refused(_ change: (inout [String: Any]) -> Void) throws -> AudioError? {
            var j = json
            change(&j)
            try JSONSerialization.data(withJSONObject: j).write(to: URL(fileURLWithPath: path))
            do { _ = try ContactModel.read(from: path); return nil } catch let e as AudioError { return e }
        }
        var cases: [String: AudioError?] = [:]
        cases["format"] = try refused { $0["format"] = "yolo" }
        cases["features"] = try refused { $0["features"] = "sound-events-0" }
        cases["threshold"] = try refused { $0["threshold"] = "high" }
        cases["child"] = try refused { j in
            var trees = j["trees"] as? [String: Any] ?? [:]
            var list = trees["trees"] as? [[String: Any]] ?? []
            list[0]["left"] = [Int](repeating: 0, count: (list[0]["left"] as? [Int])?.count ?? 1)
            list[0]["feature"] = [Int](repeating: 0, count: (list[0]["feature"] as? [Int])?.count ?? 1)
            trees["trees"] = list
            j["trees"] = trees
        }
        cases["feature index"] = try refused { j in
            var trees = j["trees"] as? [String: Any] ?? [:]
            trees["featureCount"] = 3
            j["trees"] = trees
        }
        for (what, error) in cases {
            let e = try #require(error, "a model with a bad \(what) was read")
            #expect(e.kind == .contactModelUnreadable && e.statusCode == 21 && e.message.hasSuffix("."), "\(what): \(e.message)")
        }
        try Data("{\"format\": \"swingmaster-contact-mo".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: AudioError(.contactModelUnreadable, "\(path) is not a contact model saved by `swingmaster learn-contacts`.")) {
            try ContactModel.read(from: path)
        }
        // A huge file is refused before it is read (a sparse file: no disk, no memory).
        let huge = dir.appendingPathComponent("huge.json")
        _ = FileManager.default.createFile(atPath: huge.path, contents: nil)
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 3_000_000_000)
        try handle.close()
        let e = try #require(throws: AudioError.self) { try ContactModel.read(from: huge.path) }
        #expect(e.kind == .contactModelUnreadable && e.message.contains("too large"), "\(e.message)")
        #expect(throws: AudioError(.contactModelUnreadable, "Contact model not found or unreadable: \(dir.path)/none.json.")) {
            try ContactModel.read(from: dir.appendingPathComponent("none.json").path)
        }
    }

    @Test("Too few confirmed contacts, or nothing but contacts, is one sentence with code 34")
    func tooLittleToLearn() throws {
        let t = Self.track(4, .clean, seconds: 20)
        let few = ContactModel.Recording(samples: t.samples, sampleRate: t.sampleRate, contacts: Array(t.contactTimes.prefix(4)))
        #expect(throws: AudioError(.tooFewToLearn, "A contact model learns from at least 10 confirmed contacts; the recordings given hold 4.")) {
            try ContactModel.train([few])
        }
        // Contacts where nothing sounds: none is heard.
        let silent = ContactModel.Recording(samples: [Float](repeating: 0, count: 441_000), sampleRate: 44_100,
                                            contacts: (1...12).map(Double.init))
        let e = try #require(throws: AudioError.self) { try ContactModel.train([silent]) }
        #expect(e.statusCode == 34 && e.message.contains("0 of them with a sound near it"), "\(e.message)")
        #expect(throws: AudioError.self) { try ContactModel.train([]) }
    }

    @Test("Swift and the Python reference find the same events with the same features, and the same contacts with one model",
          .enabled(if: TestFiles.referencePython != nil, "no Python found: set SWINGMASTER_PYTHON or run scripts/setup.sh"),
          arguments: [SyntheticSessionAudio.Condition.mixed, .wind])
    func pythonAgrees(condition: SyntheticSessionAudio.Condition) throws {
        let learn = Self.track(41, condition), find = Self.track(42, condition)
        let dir = try TestFiles.temporaryDirectory("contact-model-agree")
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("find.wav"), modelPath = dir.appendingPathComponent("m.json")
        try find.float32WAV().write(to: wav)
        let script = TestFiles.packageRoot.appendingPathComponent("tools/reference_events.py").path

        struct Event: Decodable { var time: Double; var features: [Double] }
        let lines = String(decoding: try TestFiles.runReference([script, wav.path]), as: UTF8.self).split(separator: "\n")
        let py = try lines.map { try JSONDecoder().decode(Event.self, from: Data($0.utf8)) }
        let swift = try SoundEvents.extract(samples: find.samples, sampleRate: find.sampleRate)
        let matched = swift.compactMap { s in py.first { abs($0.time - s.time) < 0.5e-3 }.map { (s, $0) } }
        #expect(Double(matched.count) >= 0.99 * Double(max(swift.count, py.count)), "\(swift.count) Swift, \(py.count) Python, \(matched.count) at the same sample")
        let far = matched.flatMap { s, p in zip(s.features, p.features).map { abs(Double($0) - $1) } }.filter { $0 > 0.05 }
        #expect(Double(far.count) <= 0.005 * Double(matched.count * SoundEvents.featureCount), "\(far.count) features differ by more than 0.05")

        let model = try ContactModel.train([.init(samples: learn.samples, sampleRate: learn.sampleRate, contacts: learn.contactTimes)])
        try model.data().write(to: modelPath)
        struct Found: Decodable { struct C: Decodable { var time: Double }; var contacts: [C] }
        let pyContacts = try JSONDecoder().decode(Found.self, from: TestFiles.runReference([script, wav.path, "--model", modelPath.path])).contacts.map(\.time)
        let swiftContacts = try model.detect(samples: find.samples, sampleRate: find.sampleRate).map(\.time)
        let agree = ContactScore(detected: swiftContacts, truth: pyContacts, tolerance: 0.001)
        print("contact model \(condition.name): \(swift.count) events in Swift, \(py.count) in Python, \(matched.count) at the same sample, \(far.count) features off by > 0.05; contacts \(swiftContacts.count) / \(pyContacts.count), \(agree.truePositives) the same; F1 against the truth \(ContactScore(detected: swiftContacts, truth: find.contactTimes, tolerance: 0.05).f1)")
        #expect(agree.falsePositives + agree.falseNegatives <= 1, "Swift \(swiftContacts.count), Python \(pyContacts.count), \(agree.truePositives) the same")
    }
}
