import ArgumentParser
import Foundation
import SwingAudio
import SwingCore
import SwingMedia

/// `swingmaster contacts FILE` — racket–ball contacts found from the sound alone.
struct ContactsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contacts",
        abstract: "Find racket–ball contacts in a video or audio file from its sound.",
        discussion: "Times are seconds from the start of the file, even with --start."
    )

    @Argument(help: "Video or audio file (mp4, mov, mkv, webm, avi, wav, mp3, m4a, …).")
    var file: String

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Flag(help: "Print CSV instead of a table.")
    var csv = false

    @OptionGroup var model: ContactModelOptions
    @OptionGroup var range: MediaRangeOptions
    @OptionGroup var detector: DetectorOptions

    func validate() throws {
        if json && csv { throw ValidationError("Choose one of --json and --csv.") }
        try model.validate(beside: detector)
    }

    func run() async throws {
        let report = try ContactsJob.run(
            path: file, range: range.range, limits: range.limits,
            parameters: try detector.parameters(), model: try model.load(),
            progress: ProgressBar.stagedHandler()
        )
        for w in report.warnings { Console.warn("warning: \(w)") }
        if json {
            try Console.printJSON(report.output)
        } else if report.output.model != nil {
            // A model scores each sound; it measures no peak shape, so only the time and the score are shown.
            if csv {
                try Console.line("time,confidence")
                for c in report.output.contacts { try Console.line(String(format: "%.4f,%.4f", c.time, c.confidence)) }
            } else {
                try Console.line("\(report.output.file): \(String(format: "%.2f", report.output.duration)) s, \(report.output.contacts.count) contact(s) by the model \(model.path ?? "")")
                try Console.line("     time  score")
                for c in report.output.contacts { try Console.line(String(format: "%9.3f  %5.2f", c.time, c.confidence)) }
            }
        } else if csv {
            try Console.line("time,confidence,fwhmMs,symmetry,amplitude")
            for c in report.output.contacts {
                try Console.line(String(format: "%.4f,%.4f,%.3f,%.4f,%.5f", c.time, c.confidence, c.fwhmMs, c.symmetry, c.amplitude))
            }
        } else {
            try Console.line("\(report.output.file): \(String(format: "%.2f", report.output.duration)) s, \(report.output.contacts.count) contact(s)")
            try Console.line("     time   conf   fwhm ms  symmetry  amplitude")
            for c in report.output.contacts {
                try Console.line(String(format: "%9.3f  %5.2f  %8.2f  %8.2f  %9.4f", c.time, c.confidence, c.fwhmMs, c.symmetry, c.amplitude))
            }
        }
    }
}

/// The work behind `contacts`, callable from tests and other commands.
enum ContactsJob {
    /// The `contacts --json` document.
    struct Output: Encodable {
        var file: String
        /// Seconds of audio that decoded and were searched.
        var duration: Double
        /// Seconds the container states for the searched range (more than `duration` when the file is cut short).
        var statedDuration: Double
        var sampleRate: Int
        var start: Double
        var parameters: ContactDetectorParameters
        /// What the model given with `--contact-model` learnt from (its contacts replace the detector's); nil without one.
        var model: ContactModel.Provenance?
        /// The recording's crest factor, dB; below 18 it is reported as compressed (docs/contacts.md).
        var crestFactorDb: Double?
        var contacts: [ContactCandidate]
    }

    struct Report {
        var output: Output
        var info: MediaInfo
        var warnings: [String]
    }

    /// Probes and validates `path`, extracts mono audio at its own rate (``AudioExtractor/analysisRate(for:)``) and runs the detector,
    /// or `model` when one is given. Contact times are shifted to media time (seconds from the start of the file).
    static func run(path: String, range: TimeRange?, limits: MediaLimits,
                    parameters: ContactDetectorParameters, model: ContactModel? = nil, progress: ProgressHandler?) throws -> Report {
        let info = try MediaProbe.probe(path)
        var warnings = try MediaValidator.validate(info, limits: limits, requireAudio: true, requireVideo: false, range: range)
        let pcm = try AudioExtractor.extract(path, sampleRate: AudioExtractor.analysisRate(for: info.audio), range: range) {
            progress?("extracting audio", $1)
        }
        warnings += try MediaValidator.checkDecoded(pcm.duration, info: info, limits: limits, range: range)
        let detection = try ContactModel.hear(samples: pcm.samples, sampleRate: Double(pcm.sampleRate), model: model,
                                              parameters: parameters) { progress?("detecting contacts", $1) }
        var contacts = detection.contacts
        for i in contacts.indices { contacts[i].time += pcm.startTime }
        let output = Output(
            file: path, duration: pcm.duration, statedDuration: try MediaValidator.selectedLength(info, range: range),
            sampleRate: pcm.sampleRate, start: pcm.startTime, parameters: parameters, model: model?.trainedOn,
            crestFactorDb: detection.crestFactorDb.map { ($0 * 10).rounded() / 10 }, contacts: contacts)
        return Report(output: output, info: info, warnings: warnings + detection.notes)
    }
}
