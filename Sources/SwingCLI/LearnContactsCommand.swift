import ArgumentParser
import Foundation
import SwingAudio
import SwingBiomech
import SwingCore
import SwingMedia

/// `swingmaster learn-contacts RECORDING… --contacts JSON… --out MODEL` — learns what the player's hits
/// sound like through their phone from contacts they confirmed (docs/contacts.md, "Learning the player's
/// own racket"); `contacts --contact-model MODEL` then finds them in the next session.
struct LearnContactsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "learn-contacts",
        abstract: "Learn a contact model from recordings and the contacts confirmed in them.",
        discussion: """
        Give each recording its confirmed contacts in the `contacts --json` shape ({"contacts": [{"time": …}, …]}, \
        times in seconds from the start of the file): run `contacts --json`, add the hits it missed and delete \
        what was not a hit. At least 10 contacts in all; the model knows only the rackets, balls and phones it \
        heard, so learn one per player and phone. Use it with `contacts --contact-model`.
        """
    )

    @Argument(help: "Video or audio files, each with its --contacts file in the same order.")
    var recordings: [String]

    @Option(name: .customLong("contacts"), help: "A confirmed-contacts JSON file per recording, in order.")
    var contacts: [String] = []

    @Option(name: .customLong("out"), help: "Where to write the model (JSON).")
    var out: String

    @OptionGroup var range: MediaRangeOptions

    func validate() throws {
        guard !recordings.isEmpty else { throw ValidationError("Give at least one recording.") }
        guard contacts.count == recordings.count else {
            throw ValidationError("Give one --contacts file per recording: \(recordings.count) recording(s), \(contacts.count) --contacts.")
        }
        guard out != "-" else { throw ValidationError("--out needs a file name; the model is not printed.") }
        try OutputFile.refuseInputs([("--out", out)], inputs: recordings + contacts)
    }

    func run() async throws {
        try OutputFile.checkWritable([("--out", out)])
        var sessions: [ContactModel.Recording] = []
        for (path, contactsPath) in zip(recordings, contacts) {
            let confirmed = try MeasureIO.decodeContacts(try CLIError.read(contactsPath)).map(\.time)
            let info = try MediaProbe.probe(path)
            _ = try MediaValidator.validate(info, limits: range.limits, requireAudio: true, requireVideo: false, range: range.range)
            let pcm = try AudioExtractor.extract(path, sampleRate: AudioExtractor.analysisRate(for: info.audio), range: range.range) { _, _ in }
            _ = try MediaValidator.checkDecoded(pcm.duration, info: info, limits: range.limits, range: range.range)
            // Contacts are media times; the samples start at pcm.startTime. Those outside the audio are ignored.
            let times = confirmed.map { $0 - pcm.startTime }.filter { $0 >= 0 && $0 <= pcm.duration }
            sessions.append(ContactModel.Recording(samples: pcm.samples, sampleRate: Double(pcm.sampleRate), contacts: times))
        }
        let model = try ContactModel.train(sessions, progress: ProgressBar.stagedHandler())
        let data = try model.data()
        try await OutputFile.write(out) { temporary in
            do { try data.write(to: URL(fileURLWithPath: temporary)) } catch {
                throw CLIError.cannotWrite(out, flag: "--out", error.localizedDescription)
            }
        }
        let t = model.trainedOn
        try Console.line("\(out): learnt from \(t.contacts) confirmed contacts (\(t.contactsHeard) with a sound near them) among \(t.events) sounds in \(t.recordings) recording(s), \(String(format: "%.0f", t.seconds)) s; F1 \(String(format: "%.3f", t.f1)) on them, threshold \(String(format: "%.2f", model.threshold)).")
    }
}
