import Foundation
import SwingCore

/// What one player's hits sound like through their own phone, learnt from contacts they confirmed
/// (docs/contacts.md, "Learning the player's own racket"). Where a phone's compressor reshapes every hit
/// the hand-built ``ContactDetector`` loses hits to the crowd; a model trained on one session's confirmed
/// contacts finds them in the next (F1 0.97 through the phone chains in `bench/contact_model.sh`). It
/// knows only the sounds it was shown: another racket, ball or phone needs its own.
///
/// Saved as JSON (``data()``, ``read(from:)``); `tools/reference_events.py` scores the same file in Python.
package struct ContactModel: Sendable, Codable, Equatable {
    /// The `format` of every saved model.
    package static let formatName = "swingmaster-contact-model"
    /// Fewest confirmed contacts a model learns from.
    package static let minimumContacts = 10
    /// An event within ± this of a confirmed contact is that contact, s.
    package static let tolerance = 0.050
    /// The largest file ``read(from:)`` reads.
    static let maximumFileBytes = 20_000_000
    /// Thresholds tried on the training recordings; the one with the best F1 is kept.
    static let thresholds = (0..<35).map { 0.30 + Double($0) * 0.02 }

    /// Always ``formatName``.
    package var format: String
    /// ``SoundEvents/version`` of the features the trees read.
    package var features: String
    /// Events scoring at least this are contacts.
    package var threshold: Double
    /// Two contacts are at least this far apart, ms (the detector's default).
    package var minGapMs: Double
    /// What the model learnt from.
    package var trainedOn: Provenance
    /// The trees.
    package var trees: BoostedTrees

    /// What a model learnt from, saved with it.
    package struct Provenance: Sendable, Codable, Equatable {
        /// Recordings.
        package var recordings: Int
        /// Seconds of sound.
        package var seconds: Double
        /// Confirmed contacts.
        package var contacts: Int
        /// Confirmed contacts with an event within ±50 ms (the rest it could not learn).
        package var contactsHeard: Int
        /// Sound events, hits and others.
        package var events: Int
        /// F1 (±50 ms) of the model on the recordings it learnt from.
        package var f1: Double
    }

    /// A recording and the contacts the player confirmed in it.
    package struct Recording: Sendable {
        /// Mono samples.
        package var samples: [Float]
        /// Samples per second.
        package var sampleRate: Double
        /// Confirmed contact times, s from the first sample.
        package var contacts: [Double]
        /// Memberwise initialiser.
        package init(samples: [Float], sampleRate: Double, contacts: [Double]) {
            self.samples = samples; self.sampleRate = sampleRate; self.contacts = contacts
        }
    }

    /// Learns the sound of the confirmed contacts in `recordings` against every other sound in them.
    /// - Throws: ``AudioError`` `.tooFewToLearn` when the recordings hold fewer than ``minimumContacts``
    ///   confirmed contacts with a sound event, or no other sound; `.invalidSampleRate` / `.nonFiniteSamples`.
    package static func train(_ recordings: [Recording], options: BoostedTrees.Options = BoostedTrees.Options(),
                             progress: ProgressHandler? = nil) throws -> ContactModel {
        var events: [[SoundEvent]] = []
        for (k, r) in recordings.enumerated() {
            progress?("listening", Double(k) / Double(max(1, recordings.count)))
            events.append(try SoundEvents.extract(samples: r.samples, sampleRate: r.sampleRate))
        }
        let labels = zip(events, recordings).map { e, r in
            e.map { ev in r.contacts.contains { abs($0 - ev.time) <= tolerance } }
        }
        let contacts = recordings.reduce(0) { $0 + $1.contacts.count }
        let heard = zip(events, recordings).reduce(0) { sum, pair in
            sum + pair.1.contacts.filter { c in pair.0.contains { abs($0.time - c) <= tolerance } }.count
        }
        let rows = events.flatMap { $0.map(\.features) }, flat = labels.flatMap { $0 }
        guard heard >= minimumContacts else {
            throw AudioError(.tooFewToLearn, "A contact model learns from at least \(minimumContacts) confirmed contacts; "
                             + "the recordings given hold \(contacts)\(heard < contacts ? ", \(heard) of them with a sound near it" : "").")
        }
        guard flat.contains(false) else {
            throw AudioError(.tooFewToLearn, "Every sound in the recordings given is a confirmed contact, so there is nothing to tell hits from; give a recording with other sounds in it.")
        }
        progress?("learning", 0)
        let trees = BoostedTrees.train(rows: rows, labels: flat, options: options)
        var model = ContactModel(
            format: formatName, features: SoundEvents.version, threshold: 0.5,
            minGapMs: ContactDetectorParameters.default.minGapMs,
            trainedOn: Provenance(recordings: recordings.count,
                                  seconds: recordings.reduce(0) { $0 + Double($1.samples.count) / $1.sampleRate },
                                  contacts: contacts, contactsHeard: heard, events: rows.count, f1: 0),
            trees: trees)
        // The threshold with the best F1 on the training recordings; where several tie (a model fitted to
        // its own recordings often scores them perfectly at every threshold), the middle one, farthest
        // from both ways of failing.
        let scored = events.map { $0.map { ($0, trees.probability($0.features)) } }
        let f1s = thresholds.map { t -> Double in
            model.threshold = t
            return zip(scored, recordings).map { s, r in
                ContactScore(detected: model.pick(s).map(\.time), truth: r.contacts, tolerance: tolerance)
            }.reduce(.zero, +).f1
        }
        let top = f1s.max() ?? 0
        let tied = thresholds.indices.filter { f1s[$0] >= top - 1e-9 }
        let best = (f1: top, threshold: thresholds[tied[tied.count / 2]])
        model.threshold = best.threshold
        model.trainedOn.f1 = best.f1
        progress?("learning", 1)
        return model
    }

    /// Contacts in a mono recording, by this model: every sound event scoring at least ``threshold``,
    /// the highest first, none within ``minGapMs`` of a kept one. A contact's `confidence` is its score;
    /// `snr` its broadband envelope over the floor; `fwhmMs`, `symmetry` and `amplitude` are not measured (0).
    package func detect(samples: [Float], sampleRate: Double) throws -> [ContactCandidate] {
        let events = try SoundEvents.extract(samples: samples, sampleRate: sampleRate)
        return pick(events.map { ($0, trees.probability($0.features)) })
    }

    /// The contacts in a mono recording by `model` when there is one, else by the hand-built detector with
    /// `parameters`: the one place that choice is made (`contacts`, `analyze`, a session listened to again).
    package static func hear(samples: [Float], sampleRate: Double, model: ContactModel?,
                            parameters: ContactDetectorParameters, progress: ProgressHandler? = nil) throws -> ContactDetection {
        if let model {
            progress?("contacts", 0)
            return try model.run(samples: samples, sampleRate: sampleRate)
        }
        return try ContactDetector(parameters: parameters).run(samples: samples, sampleRate: sampleRate, progress: progress)
    }

    /// ``detect(samples:sampleRate:)`` in ``ContactDetector/run(samples:sampleRate:progress:)``'s shape,
    /// with the recording's crest factor (no notes: the model was learnt from this player's phone).
    package func run(samples: [Float], sampleRate: Double) throws -> ContactDetection {
        ContactDetection(contacts: try detect(samples: samples, sampleRate: sampleRate), notes: [],
                         clickBandContent: nil, broadbandShare: nil,
                         crestFactorDb: Dynamics.crestFactorDb(samples, sampleRate: sampleRate))
    }

    func pick(_ scored: [(SoundEvent, Double)]) -> [ContactCandidate] {
        let wideRatio = 4 * SoundEvents.bands.count + 4
        let above = scored.filter { $0.1 >= threshold }.map { e, score in
            ContactCandidate(time: e.time, confidence: score, fwhmMs: 0, symmetry: 0, amplitude: 0, peakTime: e.time,
                             snr: exp(Double(e.features[wideRatio])))
        }
        return MinimumGapSuppression.apply(above, minGap: minGapMs / 1000)
    }

    /// The model as JSON.
    package func data() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// Reads a model saved by ``data()``.
    /// - Throws: ``AudioError`` `.contactModelUnreadable` naming `path` when the file is missing, is not a
    ///   contact model, was made for other features, or is damaged.
    package static func read(from path: String) throws -> ContactModel {
        // A model is about 230 kB; anything past the cap is not one, and is not read into memory.
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= maximumFileBytes else {
            throw AudioError(.contactModelUnreadable, "\(path) is \(size / 1_000_000) MB, too large to be a contact model saved by `swingmaster learn-contacts`.")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AudioError(.contactModelUnreadable, "Contact model not found or unreadable: \(path).")
        }
        return try decode(data, name: path)
    }

    /// A model from the bytes ``data()`` wrote (a file, or a stored racket sound), checked as
    /// ``read(from:)`` checks a file; `name` names it in the sentences.
    /// - Throws: ``AudioError`` `.contactModelUnreadable` when it is not a contact model, was made for other
    ///   features, or is damaged.
    package static func decode(_ data: Data, name: String) throws -> ContactModel {
        guard let model = try? JSONDecoder().decode(ContactModel.self, from: data), model.format == formatName else {
            throw AudioError(.contactModelUnreadable, "\(name) is not a contact model saved by `swingmaster learn-contacts`.")
        }
        guard model.features == SoundEvents.version else {
            throw AudioError(.contactModelUnreadable, "\(name) was learnt from features \(model.features) and this version reads \(SoundEvents.version); learn it again from the same contacts.")
        }
        guard model.trees.featureCount == SoundEvents.featureCount, model.trees.isWellFormed,
              model.threshold.isFinite, model.minGapMs.isFinite, model.minGapMs >= 0 else {
            throw AudioError(.contactModelUnreadable, "\(name) is a damaged contact model (its trees or threshold do not hold together); learn it again.")
        }
        return model
    }
}
