import Foundation
import SwingCore

extension SyntheticSessionAudio.Track {
    /// The track as a mono IEEE-float32 WAV file (format 3), readable by scipy, FFmpeg and the bench.
    package func float32WAV() -> Data { WAVFile.float32(samples, sampleRate: Int(sampleRate)) }
}
