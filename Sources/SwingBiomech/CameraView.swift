import SwingCore

/// Where the camera films the player from, read from the head over the session: the side of the body a stroke
/// is played on is judged across the court (``FrameMeasure/across``), not along the hips' own right axis.
///
/// The hips turn 90–120° into a backhand (the hitting shoulder to the net), so at contact the hips' right axis
/// points at the net and the wrist, in front of the body, lies on the "hitting side" of the pelvis: on the
/// hand-labelled broadcast clips every backhand measured so in the pelvis frame (docs/analysis.md, "Stroke
/// type"). Across the camera's horizontal axis the side stays put whatever the hips do — provided the camera is
/// behind the player (as the filming guide asks) or in front. The head says which: a player looks at the ball
/// and the far court, so the nose is ahead of the ears away from a camera behind them (broadcast clips: the
/// nose 6–14 cm behind the ears in depth; the phone drill, filmed from in front: 8 cm nearer the camera).
enum CameraView: Equatable {
    /// The player has their back to the camera: their right is the picture's right.
    case behind
    /// The player faces the camera: their right is the picture's left.
    case front
    /// Side-on, or too few frames to tell: the pelvis frame's lateral axis is used.
    case unknown

    /// The view of a session from its posed frames (the median of the nose's depth behind the ears).
    static func of(_ posed: [FrameMeasure], parameters p: BiomechParameters) -> CameraView {
        guard !posed.isEmpty else { return .unknown }
        let depth = BiomechAnalyzer.median(posed.map(\.noseBehindEars))
        if depth >= p.viewNoseDepthM { return .behind }
        if depth <= -p.viewNoseDepthM { return .front }
        return .unknown
    }

    /// The wrist's offset toward the hitting side for the stroke type, metres.
    func side(_ f: FrameMeasure) -> Double {
        switch self {
        case .behind: f.across
        case .front: -f.across
        case .unknown: f.lateral
        }
    }

    /// The hands' offset toward the hitting side (``FrameMeasure/handsAcross``: both wrists, the racket wrist
    /// counted twice), metres: where a stroke is met. At a backhand's contact both hands are on the backhand side
    /// (on the racket, or the free arm pulled back); at a forehand's the racket hand is out to the side and the
    /// free hand in front of the body, a little to the other side. On small broadcast players BlazePose can put
    /// the racket wrist over the hips while the free one is clearly out to the side (bench/real: Sinner's
    /// two-handed backhand read +4 cm for the racket wrist, −35 cm for the free hand, −9 cm for the hands).
    func handsSide(_ f: FrameMeasure) -> Double {
        switch self {
        case .behind: f.handsAcross
        case .front: -f.handsAcross
        case .unknown: f.handsLateral
        }
    }
}
