import ArgumentParser
import SwingAudio

/// `--contact-model MODEL` of `contacts` and `analyze`: a model from `learn-contacts` finds the contacts
/// instead of the hand-built detector (docs/contacts.md, "Learning the player's own racket").
struct ContactModelOptions: ParsableArguments {
    @Option(name: .customLong("contact-model"),
            help: "A contact model from `learn-contacts`: find the hits it learnt instead of using the detector's settings.")
    var path: String?

    /// Refuses detector settings beside a model: they would be silently ignored.
    func validate(beside detector: DetectorOptions) throws {
        if path != nil, try detector.parameters() != .default {
            throw ValidationError("--contact-model replaces the hand-built detector, so its options (--sensitivity, --spec-literal, --threshold-factor, …) do not apply; drop them or --contact-model.")
        }
    }

    /// The model, read and checked; `nil` without `--contact-model`.
    func load() throws -> ContactModel? { try path.map(ContactModel.read(from:)) }
}
