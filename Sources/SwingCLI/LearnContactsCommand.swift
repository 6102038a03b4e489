import ArgumentParser
import Foundation
import SwingAudio
import SwingBiomech
import SwingCore
import SwingMedia
import SwingPipeline

/// `swingmaster learn-contacts RECORDING… --contacts JSON… --out MODEL` — learns what the player's hits
/// sound like through their phone from contacts they confirmed (docs/contacts.md, "Learning the player's
/// own racket"); `contacts --contact-model MODEL` then finds them in the next session.
struct LearnContactsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "learn-contacts",
        abstract: "Learn a contact model from recordings and the contacts confirmed in them.",
        discussion: """
        Learn from stored sessions whose contacts you corrected (--session ID: on the results page, add the \
        hits it missed and remove what was not a hit), or give each recording its confirmed contacts in the \
        `contacts --json` shape ({"contacts": [{"time": …}, …]}, times in seconds from the start of the file). \
        At least 10 contacts in all; the model knows only the rackets, balls and phones it heard, so learn one \
        per player and phone. Use it with `contacts --contact-model` and `analyze --contact-model`.
        """
    )

    @Argument(help: "Video or audio files, each with its --contacts file in the same order.")
    var recordings: [String] = []

    @Option(name: .customLong("contacts"), help: "A confirmed-contacts JSON file per recording, in order.")
    var contacts: [String] = []

    @Option(name: .customLong("session"), help: "A stored session to learn from, with the contacts as you left them (repeatable).")
    var sessions: [Int64] = []

    @Option(name: .customLong("out"), help: "Where to write the model (JSON).")
    var out: String

    @OptionGroup var range: MediaRangeOptions
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        guard !recordings.isEmpty || !sessions.isEmpty else {
            throw ValidationError("Give at least one recording with its --contacts, or a --session.")
        }
        guard contacts.count == recordings.count else {
            throw ValidationError("Give one --contacts file per recording: \(recordings.count) recording(s), \(contacts.count) --contacts.")
        }
        guard out != "-" else { throw ValidationError("--out needs a file name; the model is not printed.") }
        try OutputFile.refuseInputs([("--out", out)], inputs: recordings + contacts)
    }

    func run() async throws {
        try OutputFile.checkWritable([("--out", out)])
        var learnFrom: [ContactModel.Recording] = []
        for (path, contactsPath) in zip(recordings, contacts) {
            let confirmed = try MeasureIO.decodeContacts(try CLIError.read(contactsPath)).map(\.time)
            learnFrom.append(try ContactModel.Recording.of(media: path, range: range.range, limits: range.limits, contacts: confirmed))
        }
        if !sessions.isEmpty {
            let db = try await storeOptions.open()
            for id in sessions {
                let stored = try await SessionEditor.confirmedContacts(id: id, in: db)
                if !stored.edited {
                    Console.warn("warning: Session \(id) was never corrected, so the model learns its contacts as the detector heard them, misses and all; check them on its results page first.")
                }
                learnFrom.append(try ContactModel.Recording.of(media: stored.path, range: stored.range, limits: range.limits, contacts: stored.times))
            }
        }
        let model = try ContactModel.train(learnFrom, progress: ProgressBar.stagedHandler())
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
