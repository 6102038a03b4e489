import ArgumentParser
import SwingAudio

/// `--contact-model MODEL` of `contacts` and `analyze`: a model from `learn-contacts` finds the contacts
/// instead of the hand-built detector (docs/contacts.md, "Learning the player's own racket").
struct ContactModelOptions: ParsableArguments {
    @Option(name: .customLong("contact-model"),
            help: "A contact model from `learn-contacts`: find the hits it learnt instead of using the detector's settings.")
    var path: String?

    /// Refuses detector settings beside a model: they would be silently ignored. `racketSound` is `analyze`'s
    /// `--racket-sound` (a model kept in the store), which replaces the detector the same way.
    func validate(beside detector: DetectorOptions, racketSound: Int64? = nil) throws {
        if path != nil, racketSound != nil {
            throw ValidationError("Give --contact-model or --racket-sound, not both: each is a learnt model that hears the hits.")
        }
        let flag = racketSound != nil ? "--racket-sound" : "--contact-model"
        if path != nil || racketSound != nil, try detector.parameters() != .default {
            throw ValidationError("\(flag) replaces the hand-built detector, so its options (--sensitivity, --spec-literal, --threshold-factor, …) do not apply; drop them or \(flag).")
        }
    }

    /// The model, read and checked; `nil` without `--contact-model`.
    func load() throws -> ContactModel? { try path.map(ContactModel.read(from:)) }
}
