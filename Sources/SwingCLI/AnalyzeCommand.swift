import ArgumentParser
import Foundation
import SwingAudio
import SwingBiomech
import SwingCore
import SwingPipeline
import SwingPose

/// `swingmaster analyze VIDEO` — the product: contact point, wrist speed, swing arc and consistency.
struct AnalyzeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Analyse a tennis session video: contact point relative to the body, wrist speed, consistency.",
        discussion: """
        Film from behind the baseline with the whole body in view and the camera level. The session is \
        stored in $SWINGMASTER_HOME (default ~/.swingmaster) unless --no-store is given; Ctrl-C stops \
        the analysis and stores nothing. With --detector MODEL a racket/ball YOLO model also looks for \
        contacts on the video and they are fused with the audio ones (docs/fusion.md).
        """
    )

    @Argument(help: "Session video (mp4, mov, mkv, …) with its sound.")
    var video: String

    @Option(help: "Dominant hand: right | left. Asked once and remembered when omitted.")
    var hand: Hand?

    @Option(name: .customLong("json"), help: "Also write the session as JSON to this file ('-' for stdout).")
    var jsonOut: String?

    @Option(name: .customLong("csv"), help: "Also write one row per shot as CSV to this file ('-' for stdout).")
    var csvOut: String?

    @Option(name: .customLong("save-video"), help: "Write the video with skeleton, wrist arc and contact frames drawn (MP4).")
    var saveVideo: String?

    @Option(name: .customLong("save-highlights"), help: ArgumentHelp(
        "Write the highlights: each shot's swing cut from the video and joined in order, rallies kept whole, a chapter at every shot (MP4).",
        valueName: "OUT.mp4"))
    var saveHighlights: String?

    @Flag(name: .customLong("highlights-skeleton"), help: "Draw the skeleton and the wrist's arc on the highlights.")
    var highlightsSkeleton = false

    @Option(name: .customLong("save-track"), help: ArgumentHelp(
        "Also write the posed frames as JSON to this file, in the `pose --json` shape `measure --track` reads (image landmarks in the video's display pixels).",
        valueName: "file"))
    var trackOut: String?

    @Flag(name: .customLong("no-store"), help: "Do not store the session in the database.")
    var noStore = false

    @Flag(name: .customLong("no-smooth"), help: "Turn off BlazePose's temporal landmark smoothing.")
    var noSmooth = false

    @Option(name: .customLong("player"), help: ArgumentHelp(
        "Where the player is in the picture when other people are in view: fractions of its width and height from the top-left (e.g. 0.5,0.8), and optionally @SECONDS, the moment of the video they are there (e.g. 0.5,0.8@4.6: the person nearest the point in that frame is measured in every shot). Stored with the session. Default: the biggest person, or at a loud hit where they do not swing, whoever else does.",
        valueName: "x,y[@seconds]"))
    var player: PlayerPointArgument?

    @Option(name: .customLong("max-pose-side"), help: "Scale frames so the longer side is at most this many pixels before pose (default \(AnalysisOptions().maxPoseImageSide ?? 0); 0 = keep).")
    var maxPoseSide: Int?

    @OptionGroup var range: MediaRangeOptions
    @OptionGroup var detector: DetectorOptions
    @OptionGroup var contactModel: ContactModelOptions
    @Option(name: .customLong("racket-sound"), help: ArgumentHelp(
        "Hear the hits with a racket sound kept in the store (learnt on a results page, or by learn-contacts --keep; their ids: learn-contacts --list).",
        valueName: "ID"))
    var racketSound: Int64?
    @OptionGroup var visualDetector: VisualDetectorOptions
    @OptionGroup var biomech: BiomechOptions
    @OptionGroup var sampling: PoseSamplingOptions
    @OptionGroup var storeOptions: StoreOptions

    /// The files this run writes, for the checks made before any work.
    private var outputs: [OutputFile.Request] {
        [("--json", jsonOut), ("--csv", csvOut), ("--save-track", trackOut), ("--save-video", saveVideo), ("--save-highlights", saveHighlights)]
    }

    func validate() throws {
        try OptionCheck.integer(maxPoseSide, "--max-pose-side", 0...OptionCheck.maxImageSide)
        try player?.validate()
        try OutputFile.refuseInputs(outputs, inputs: [video] + [visualDetector.detector, contactModel.path].compactMap { $0 } + OutputFile.poseModelFiles(nil))
        try contactModel.validate(beside: detector, racketSound: racketSound)
        if let racketSound, racketSound < 1 { throw ValidationError("--racket-sound takes a racket sound's id (1 or more; learn-contacts --list).") }
    }

    func run() async throws {
        // Watch for Ctrl-C from the start, so an interrupt while models load also stores nothing.
        let cancellation = Cancellation()
        let interrupt = InterruptWatcher { cancellation.cancel() }
        defer { interrupt.stop() }
        try OutputFile.checkWritable(outputs)
        let db: MediaLibrary? = noStore ? nil : try await storeOptions.open()
        // Load the racket/ball model (if any) first, so a bad model fails before anything is stored.
        let visual = try await visualDetector.load(db: db)
        let (hand, remember) = try await resolveHand(db)
        var options = AnalysisOptions()
        options.range = range.range
        options.limits = range.limits
        options.detector = try detector.parameters()
        options.sensitivity = detector.sensitivity ?? .normal
        if let racketSound {
            let library: MediaLibrary
            if let db { library = db } else { library = try await storeOptions.open() }
            options.contactModel = try await library.racketSoundModel(id: racketSound)
        } else {
            options.contactModel = try contactModel.load()
        }
        options.visualContacts = visual?.options
        options.biomech = try biomech.parameters(hand: hand)
        options.slowMotion = biomech.slowMotion
        options.pose.smoothing = !noSmooth
        if let player { options.player = .marked(player.mark) }
        options.poseSampling = try sampling.sampling()
        if let threads = sampling.poseThreads { options.pose.threads = threads }
        if let maxPoseSide { options.maxPoseImageSide = maxPoseSide > 0 ? maxPoseSide : nil }

        let analyzer = try SessionAnalyzer(options: options, visualPredictor: visual?.predictor)
        let path = video
        let progress = ProgressBar.stagedHandler()
        let analysis: SessionAnalysis
        do {
            analysis = try await Console.blocking("swingmaster.analysis", cancellation: cancellation) {
                try analyzer.analyze(path: path) { stage, fraction in progress(stage.rawValue, fraction) }
            }
        } catch where cancellation.isCancelled {
            throw PipelineError.cancelled()
        }
        if cancellation.isCancelled { throw PipelineError.cancelled() }
        for w in analysis.warnings { Console.warn("warning: \(w)") }

        // Store last: the overlay video goes to a temporary file first, the JSON and CSV are written inside
        // the store's transaction (one document for every output: the stored bytes are what --json
        // writes), so a failed output stores nothing and leaves no half-written file.
        let createdAt = Date()
        let (jsonOut, csvOut, trackOut) = (self.jsonOut, self.csvOut, self.trackOut)
        let track = try trackOut.map { _ in try MeasureIO.encodeTrack(analysis.track, imageScale: analysis.displayScale) }
        @Sendable func writeFiles(_ document: SessionDocument, _ json: Data) throws {
            if let jsonOut { try Console.write(json, to: jsonOut) }
            if let csvOut { try Console.write(Data(document.csv().utf8), to: csvOut) }
            if let trackOut, let track { try Console.write(track, to: trackOut) }
        }
        let (saveHighlights, highlightsSkeleton) = (self.saveHighlights, self.highlightsSkeleton)
        let document = try await OutputFile.write(optional: saveVideo) { temporary in
            try await OutputFile.write(optional: saveHighlights) { highlights in
                var document = SessionDocument(analysis, id: nil, file: video, hand: hand, createdAt: createdAt)
                if let temporary {
                    try SessionOverlay.write(document, shotFrames: analysis.shotFrames(hand: hand), source: video, to: temporary,
                                             maxSide: analysis.poseImageSide, progress: progress)
                }
                if let highlights {
                    try SessionHighlights.write(document, shotFrames: analysis.shotFrames(hand: hand), source: video, to: highlights,
                                                maxSide: nil, overlay: highlightsSkeleton, progress: progress)
                }
                if let db {
                    let saved = try await db.save(analysis, file: video, mediaPath: video, hand: hand, createdAt: createdAt,
                                                  beforeCommit: writeFiles)
                    document.session.id = saved.id
                } else {
                    try writeFiles(document, document.jsonData())
                }
                return document
            }
        }
        if remember { try await db?.setDominantHand(hand) }
        if let visual, let report = analysis.visualContacts { try await visual.model.recordUse(report.runStats, in: db) }
        if jsonOut != "-" && csvOut != "-" && trackOut != "-" { try Console.line(SessionTable.summary(document, analysis: analysis)) }
    }

    /// The dominant hand and whether to remember it once the run succeeds: the flag (remembered), else
    /// the stored profile, else ask once on a terminal (remembered), else right-handed with a note.
    private func resolveHand(_ db: MediaLibrary?) async throws -> (Hand, remember: Bool) {
        if let hand { return (hand, true) }
        if let stored = try await db?.dominantHand() { return (stored, false) }
        if isatty(0) != 0 {
            Console.err("Which hand do you hit with? [r]ight / [l]eft: ")
            let answer = (readLine() ?? "").trimmingCharacters(in: .whitespaces).lowercased()
            return (answer.hasPrefix("l") ? .left : .right, true)
        }
        Console.warn("note: assuming a right-handed player; pass --hand left|right once to remember it")
        return (.right, false)
    }
}
