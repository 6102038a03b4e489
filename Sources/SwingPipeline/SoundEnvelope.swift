import Foundation
import SwingAudio
import SwingCore
import SwingMedia
import SwingStore

/// The contact sensitivities a request names (the application layer's name for the engine's type, so the
/// adapters need not import the audio engine).
package typealias ContactSensitivity = SwingAudio.ContactSensitivity

/// A session's sound as the results page's timeline draws it: the peak level of each of `bins` equal slices of
/// the analysed part, dBFS rounded to 0.1 dB (−90 for silence).
package struct SoundEnvelope: Codable, Sendable, Equatable {
    /// The analysed part's start and length, seconds of media time.
    package var start: Double
    package var duration: Double
    /// One peak per slice, dBFS.
    package var peaksDb: [Double]

    /// The bins a caller may ask for.
    package static let binRange = 10...4000

    /// The envelope of stored session `id` in `bins` slices (the sound decoded at 8 kHz); `nil` when there is no
    /// such session.
    /// - Throws: ``SoundEnvelope/Unreadable`` when the session's media can no longer be read, the store's errors.
    package static func of(session id: Int64, bins: Int, in db: any Store) async throws -> SoundEnvelope? {
        guard let record = try await db.sessionRecord(id: id), let document = try await SessionArchive.document(id: id, in: db) else {
            return nil
        }
        let start = document.session.start ?? 0, duration = document.session.duration
        let path = record.filePath
        return try await BlockingWork.run("swingmaster.envelope") { () throws -> SoundEnvelope in
            do {
                let pcm = try AudioExtractor.extract(path, sampleRate: 8_000, range: TimeRange(start: start, duration: duration))
                return SoundEnvelope(start: start, duration: duration, peaksDb: peaks(pcm.samples, bins: bins))
            } catch let error as any UserFacingError {
                throw Unreadable(reason: error.description)
            }
        }
    }

    /// The session's media could not be read again.
    package struct Unreadable: Error, CustomStringConvertible {
        package var reason: String
        package var description: String { "The session's sound cannot be read any more: \(reason)" }
    }

    /// The peak |sample| of each of `bins` equal slices, in dB, rounded to 0.1 dB.
    static func peaks(_ samples: [Float], bins: Int) -> [Double] {
        guard !samples.isEmpty else { return Array(repeating: -90, count: bins) }
        return (0..<bins).map { b in
            let lo = samples.count * b / bins, hi = max(lo + 1, samples.count * (b + 1) / bins)
            let peak = samples[lo..<min(hi, samples.count)].reduce(Float(0)) { max($0, abs($1)) }
            return ((max(-90, 20 * log10(Double(max(peak, 1e-9))))) * 10).rounded() / 10
        }
    }
}
