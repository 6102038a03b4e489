import SwingCore

/// One point of the swing arc: body-frame centimetres (forward, lateral, height above the shot's ground
/// level — the same axes as the contact point) and the frame time.
public struct ArcPoint: Sendable, Equatable {
    public var forwardCm: Double
    public var lateralCm: Double
    public var heightCm: Double
    public var time: Double
}

/// One point of the image-space swing arc (the units of the track's image landmarks) and the frame time.
public struct ImageArcPoint: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var time: Double
}

/// The dominant wrist over the swing window, Gaussian-smoothed for display (metrics use raw frames).
public struct SwingArc: Sendable, Equatable {
    public var body: [ArcPoint]
    /// `nil` when not every window frame had image landmarks.
    public var image: [ImageArcPoint]?
}

/// The measurements of one contact.
public struct ShotMetrics: Sendable, Equatable {
    /// 1-based position among the contacts (sorted by time).
    public var index: Int
    /// The contact's audio time, as given.
    public var time: Double
    /// t_c = time − sound delay: the instant the metrics describe.
    public var contactTime: Double
    /// The contact detector's confidence.
    public var confidence: Double
    public var status: ShotStatus
    /// (W − P)·f at t_c, cm. `nil` for a no-person shot (as are all metrics below).
    public var forwardCm: Double?
    /// (W − P)·h at t_c, cm.
    public var lateralCm: Double?
    /// (W − P)·u − g at t_c, cm.
    public var heightCm: Double?
    /// Wrist speed at the contact frame, cm/s; `nil` also when the track has a single posed frame.
    public var wristSpeedCmS: Double?
    public var classification: ContactClassification?
    /// Track index of the contact frame: the posed frame nearest t_c (interpolate mode) or the chosen
    /// best-confidence frame.
    public var contactTrackIndex: Int?
    /// Ground level g of the shot (median lowest-foot height relative to the pelvis), cm.
    public var groundCm: Double?
    /// Track indices of the posed frames in the swing window.
    public var windowFrames: [Int]
    public var arc: SwingArc?
}
