import ArgumentParser
import SwingBiomech
import SwingCore

extension Hand: ExpressibleByArgument {}
extension ContactFrameMode: ExpressibleByArgument {}

/// Command-line overrides for ``BiomechParameters`` (shared by `measure` and `analyze`).
struct BiomechOptions: ParsableArguments {
    @Option(name: .customLong("sound-delay-ms"),
            help: "How long the sound arrives after the picture, ms: 'auto' (default) measures it from the player's swings, a number (e.g. 0) is used as given.")
    var soundDelay: SoundDelayArgument = .auto
    @Option(name: .customLong("slow-motion"),
            help: "How many times slower the video plays than it was filmed (e.g. 8 for 240 fps played at 30); speeds are then on the real clock. Default: analyze reads it from the file's capture rate, else real time.")
    var slowMotion: Double?
    @Option(name: .customLong("contact-frame"), help: "interpolate | best-confidence (default interpolate).")
    var contactFrame: ContactFrameMode?
    @Option(name: .customLong("late-below-cm"), help: "Forward distance below which a contact is late, cm (default 20).")
    var lateBelowCm: Double?
    @Option(name: .customLong("early-above-cm"), help: "Forward distance above which a contact is early, cm (default 60).")
    var earlyAboveCm: Double?
    @Option(name: .customLong("window-before"), help: "Swing window start before contact, s (default 1.0).")
    var windowBefore: Double?
    @Option(name: .customLong("window-after"), help: "Swing window end after contact, s (default 0.5).")
    var windowAfter: Double?
    @Option(name: .customLong("speed-half-span"), help: "Wrist speed uses frames i±k (default 3).")
    var speedHalfSpan: Int?
    @Option(name: .customLong("serve-late-below-cm"), help: "Serves: forward distance below which a serve is late, cm (default 0).")
    var serveLateBelowCm: Double?
    @Option(name: .customLong("serve-early-above-cm"), help: "Serves: forward distance above which a serve is early, cm (default 60).")
    var serveEarlyAboveCm: Double?
    @Option(name: .customLong("threshold-trunk-cm"),
            help: "The late and early limits are for a body with a trunk (hips to shoulders) this long, and scale with the trunk measured, cm (default 50; 0 = plain centimetres).")
    var thresholdTrunkCm: Double?
    @Flag(name: .customLong("no-swing-check"),
          help: "Count every heard contact with a person as a shot, even when the wrist did not swing around it.")
    var noSwingCheck = false
    @Option(name: .customLong("swing-min-speed"),
            help: "Swing check: the wrist's peak speed within 0.25 s of a contact must reach this, cm/s (default 140).")
    var swingMinSpeed: Double?
    @Option(name: .customLong("min-hit-interval"),
            help: "One swing, one hit: of two contacts closer than this, s, only the surer hit sound is counted (default 0.6; 0 = off, e.g. for reflex volleys).")
    var minHitInterval: Double?

    func validate() throws {
        if case .ms(let ms) = soundDelay { try OptionCheck.number(ms, "--sound-delay-ms", -10_000...10_000) }
        try OptionCheck.number(lateBelowCm, "--late-below-cm", -1_000...1_000)
        try OptionCheck.number(earlyAboveCm, "--early-above-cm", -1_000...1_000)
        try OptionCheck.number(windowBefore, "--window-before", 0...60)
        try OptionCheck.number(windowAfter, "--window-after", 0...60)
        try OptionCheck.integer(speedHalfSpan, "--speed-half-span", 1...1_000)
        try OptionCheck.number(serveLateBelowCm, "--serve-late-below-cm", -1_000...1_000)
        try OptionCheck.number(serveEarlyAboveCm, "--serve-early-above-cm", -1_000...1_000)
        try OptionCheck.number(swingMinSpeed, "--swing-min-speed", 0...100_000)
        try OptionCheck.number(minHitInterval, "--min-hit-interval", 0...10)
        try OptionCheck.number(thresholdTrunkCm, "--threshold-trunk-cm", 0...500)
        try OptionCheck.number(slowMotion, "--slow-motion", 1...BiomechParameters.maximumSlowMotion)
        _ = try parameters(hand: .right)   // combinations (late ≤ early)
    }

    /// The parameters for `hand` with the user's overrides.
    func parameters(hand: Hand) throws -> BiomechParameters {
        var p = BiomechParameters(hand: hand)
        switch soundDelay {
        case .auto: p.soundDelayMs = nil
        case .ms(let ms): p.soundDelayMs = ms
        }
        if let slowMotion { p.slowMotion = slowMotion }
        if let contactFrame { p.contactFrame = contactFrame }
        if let lateBelowCm { p.lateBelowCm = lateBelowCm }
        if let earlyAboveCm { p.earlyAboveCm = earlyAboveCm }
        if let windowBefore { p.windowBefore = windowBefore }
        if let windowAfter { p.windowAfter = windowAfter }
        if let speedHalfSpan { p.speedHalfSpan = speedHalfSpan }
        if let serveLateBelowCm { p.serveLateBelowCm = serveLateBelowCm }
        if let serveEarlyAboveCm { p.serveEarlyAboveCm = serveEarlyAboveCm }
        if let thresholdTrunkCm { p.thresholdTrunkCm = thresholdTrunkCm }
        if noSwingCheck { p.swingCheck = false }
        if let swingMinSpeed { p.swingMinSpeedCmS = swingMinSpeed }
        if let minHitInterval { p.minHitIntervalS = minHitInterval }
        if let problem = p.problem { throw ValidationError(problem) }
        return p
    }
}

/// `--sound-delay-ms`: `auto` (measure it from the body) or milliseconds.
enum SoundDelayArgument: ExpressibleByArgument, Equatable {
    case auto
    case ms(Double)

    init?(argument: String) {
        if argument.lowercased() == "auto" { self = .auto; return }
        // Any number parses here (nan, 1e19 too), so validate() answers with the flag's range in one sentence.
        guard let value = Double(argument) else { return nil }
        self = .ms(value)
    }

    var defaultValueDescription: String {
        switch self {
        case .auto: "auto"
        case .ms(let ms): String(format: "%g", ms)
        }
    }
}

/// `--player X,Y[@SECONDS]`: where the player is in the picture, as fractions of its width and height from the
/// top-left, and optionally the moment of the video they are there (``PlayerMark``).
struct PlayerPointArgument: ExpressibleByArgument, Equatable {
    var mark: PlayerMark

    init?(argument: String) {
        // Any numbers parse here (nan, 1e300 too), so validate() answers with the range in one sentence.
        guard let mark = PlayerMark(text: argument) else { return nil }
        self.mark = mark
    }

    /// Throws unless both fractions are within the picture and the moment (if any) is a time of a video.
    func validate(flag: String = "--player") throws {
        if let problem = mark.problem { throw ValidationError("\(flag): \(problem)") }
    }
}
