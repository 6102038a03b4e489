import SwingCore
import SwingMedia

/// The frames of one piece as they were decoded for its first person, kept so that posing the piece again for
/// someone else (``WindowPoser/chooseBySwing``: who hits?) reads them here instead of seeking back and decoding
/// them again.
///
/// A seek decodes from the keyframe before it, and files cut or exported by an editor often have one keyframe in
/// many seconds (x264's default is one in 250 frames; the real phone drill in `../shared/real` has one in 8 s), so
/// each second look at a piece decoded the video from its start again: on that drill the searches for the hitter
/// decoded more frames than the first poses did. The frames are held only while one piece is posed, and only up
/// to ``budgetBytes``: a piece whose frames do not fit is decoded again as before. The same frames in the same
/// order reach the tracker either way, so the poses are the same.
struct PieceFrames {
    /// The piece whose selected frames are held.
    let range: ClosedRange<Double>
    /// The most picture bytes one worker holds (``defaultBudgetBytes``).
    let budgetBytes: Int
    /// How many frames the piece selects: when that many of its first frame's size would not fit the budget, no
    /// frame is held at all (rather than held and let go at the budget, which would only raise the peak memory).
    let expectedFrames: Int
    private(set) var frames: [VideoFrame] = []
    private var bytes = 0
    /// Every selected frame of ``range`` is held (the piece was read to its end within the budget).
    private(set) var complete = false
    private var overBudget = false

    /// 160 MiB a worker: a 2-s piece of 720p at 30 fps (about 40 frames of 2.8 MB); at 1080p about 25 frames.
    static let defaultBudgetBytes = 160 << 20

    init(range: ClosedRange<Double>, expectedFrames: Int, budgetBytes: Int = defaultBudgetBytes) {
        self.range = range; self.expectedFrames = expectedFrames; self.budgetBytes = budgetBytes
    }

    /// Holds `frame`, the next selected frame of ``range`` in time order; past the budget, lets every frame go.
    mutating func keep(_ frame: VideoFrame) {
        guard !overBudget, !complete else { return }
        if frames.isEmpty {
            let (needed, overflow) = expectedFrames.multipliedReportingOverflow(by: frame.image.pixels.count)
            if overflow || needed > budgetBytes {
                overBudget = true
                return
            }
        }
        bytes += frame.image.pixels.count
        if bytes > budgetBytes {
            overBudget = true
            frames = []
        } else {
            frames.append(frame)
        }
    }

    /// The piece was read to its end: the frames held are all of its selected frames (unless the budget ran out).
    mutating func finish() { complete = !overBudget }

    /// The held frames a reader would deliver for `part` (its start and end within ``VideoFrameReader``'s
    /// tolerance), or `nil` when they are not all held.
    func frames(in part: ClosedRange<Double>) -> [VideoFrame]? {
        let eps = VideoFrameReader.timeEpsilon
        guard complete, part.lowerBound >= range.lowerBound - eps, part.upperBound <= range.upperBound + eps else { return nil }
        return frames.filter { $0.time >= part.lowerBound - eps && $0.time <= part.upperBound + eps }
    }
}
