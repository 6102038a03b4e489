import SwingAudio
import SwingBiomech
import SwingMedia
import SwingPose

/// Every knob of `swingmaster analyze`, with the product defaults.
package struct AnalysisOptions: Sendable {
    /// Trim: analyse only this part of the file (`nil` = all of it).
    package var range: TimeRange?
    /// Accepted input durations and the resolution warning threshold.
    package var limits = MediaLimits()
    /// Audio sample rate the detector runs at; `nil` (default) = the track's own rate when it is a
    /// full-band one, else 44.1 kHz (``AudioExtractor/analysisRate(for:)``): the detector's bands are in
    /// Hz, so resampling buys nothing and costs time.
    package var sampleRate: Int?
    /// Audio contact detector parameters.
    package var detector = ContactDetectorParameters.default
    /// The sensitivity ``detector`` was set from, recorded in the session document (the thresholds
    /// themselves are in ``detector``).
    package var sensitivity = ContactSensitivity.normal
    /// A contact model learnt from the player's confirmed contacts (`analyze --contact-model`, made by
    /// `learn-contacts`): it finds the contacts instead of ``detector``. `nil` (default) = the detector.
    package var contactModel: ContactModel?
    /// A racket/ball detector whose contacts are fused with the audio ones (`analyze --detector`);
    /// `nil` (default) = contacts from the sound alone.
    package var visualContacts: VisualContactOptions?
    /// Biomechanics: hand, sound delay (measured from the body by default), swing window (1.0 s before,
    /// 0.5 s after), classification.
    package var biomech = BiomechParameters(soundDelayMs: nil)
    /// How many times slower than it was filmed the video plays (`analyze --slow-motion`); `nil` (default)
    /// reads it from the file's capture rate (``VideoStreamInfo/slowMotion``), real time when it states none.
    /// Sets ``BiomechParameters/slowMotion``: speeds are measured on the real clock.
    package var slowMotion: Double?
    /// BlazePose thresholds and smoothing.
    package var pose = PoseOptions()
    /// Whom the pose stage follows in each swing window when several people are in view. Default: the biggest
    /// person (the player filmed from behind the baseline is the nearest to the camera), posed again as another
    /// person in view when the first does not swing at a loud contact. ``PersonChoice/marked(_:)`` (`--player
    /// X,Y[@SECONDS]`, the web app's picker): the person the player pointed at — with a moment, the person whose
    /// hips are nearest the point in the frame shown then, followed in every window as the person of about their
    /// size nearest where they stood (``PersonChoice/like(position:size:)``); without one, the person nearest the
    /// point in each window. Once chosen, a window's person is never swapped for another (``PoseTracker``), and
    /// people too small for the whole frame are looked for in tiles of it. The mark is kept in the session
    /// (``SessionDocument/Session/player``), so edits pose added windows the same way.
    package var player = PersonChoice.largest
    /// Frames are scaled so their longer side is at most this many pixels before pose estimation
    /// (BlazePose looks at a 224 px letterbox and a 256 px crop). Default 1920: 1080p is converted to RGB
    /// unscaled, which FFmpeg does in ~0.8 ms a frame, while scaling it to 1280×720 costs ~4.4 ms
    /// (measured, one core) — more than the smaller picture saves; 4K is still brought down to 1920.
    /// `nil` keeps the decoded size.
    package var maxPoseImageSide: Int? = 1920
    /// Which window frames are posed (every frame near a contact, 15 fps elsewhere) and by how many
    /// parallel workers. ``PoseSampling/everyFrame`` poses all of them.
    package var poseSampling = PoseSampling()

    package init() {}
}
