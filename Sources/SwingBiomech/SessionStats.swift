import SwingCore

import Foundation

/// Mean and population standard deviation of one axis, centimetres.
package struct AxisStats: Sendable, Equatable, Codable {
    package var meanCm: Double
    /// Population SD (ddof 0, numpy's default).
    package var sdCm: Double

    package init(meanCm: Double, sdCm: Double) { self.meanCm = meanCm; self.sdCm = sdCm }
}

/// Min / max / mean wrist speed, cm/s.
package struct SpeedStats: Sendable, Equatable, Codable {
    package var minCmS: Double
    package var maxCmS: Double
    package var meanCmS: Double

    package init(minCmS: Double, maxCmS: Double, meanCmS: Double) {
        self.minCmS = minCmS; self.maxCmS = maxCmS; self.meanCmS = meanCmS
    }
}

/// Statistics over the shots with a person ("no person" shots are left out): the one shape of a session's
/// statistics, in `measure --json`, the session document's `stats`, the store and the session listings.
package struct SessionStats: Codable, Sendable, Equatable {
    package var shotCount: Int
    package var forward: AxisStats?
    package var lateral: AxisStats?
    package var height: AxisStats?
    /// 100·exp(−0.5·(sdF² + sdL² + sdH²)) with the SDs in decimetres; `nil` without shots.
    package var consistency: Double?
    package var wristSpeed: SpeedStats?
    /// Mean and spread of each body measure at contact (``Shot/angles``) over the shots that have it.
    package var angles: BodyMeasureStats?
    /// The same statistics per stroke type present (keys: ``StrokeType`` raw values), so a session of
    /// forehands, backhands and serves is not judged by one mean; `nil` inside the per-stroke entries.
    package var byStroke: [String: SessionStats]?

    /// Statistics as given (e.g. read back from elsewhere).
    package init(shotCount: Int, forward: AxisStats? = nil, lateral: AxisStats? = nil, height: AxisStats? = nil,
                consistency: Double? = nil, wristSpeed: SpeedStats? = nil) {
        self.shotCount = shotCount; self.forward = forward; self.lateral = lateral; self.height = height
        self.consistency = consistency; self.wristSpeed = wristSpeed
    }

    /// Computes the statistics of the `ok` shots in `shots`, session-wide and per stroke type.
    package init(shots: [Shot]) {
        self.init(okShots: shots.filter { $0.status == .ok })
        var groups: [String: SessionStats] = [:]
        for stroke in StrokeType.allCases {
            let these = shots.filter { $0.status == .ok && $0.stroke == stroke }
            if !these.isEmpty { groups[stroke.rawValue] = SessionStats(okShots: these) }
        }
        byStroke = groups.isEmpty ? nil : groups
    }

    private init(okShots ok: [Shot]) {
        let contacts = ok.compactMap(\.contact)
        shotCount = ok.count
        forward = Self.axis(contacts.map(\.forwardCm))
        lateral = Self.axis(contacts.map(\.lateralCm))
        height = Self.axis(contacts.map(\.heightCm))
        if let f = forward, let l = lateral, let h = height {
            consistency = Self.consistency(sdForwardCm: f.sdCm, sdLateralCm: l.sdCm, sdHeightCm: h.sdCm)
        } else {
            consistency = nil
        }
        let speeds = ok.compactMap(\.wristSpeedCmS)
        if let lo = speeds.min(), let hi = speeds.max() {
            wristSpeed = SpeedStats(minCmS: lo, maxCmS: hi, meanCmS: speeds.reduce(0, +) / Double(speeds.count))
        } else {
            wristSpeed = nil
        }
        angles = BodyMeasureStats(ok.compactMap(\.angles))
    }

    /// The consistency score from the three SDs in centimetres (converted to decimetres):
    /// 10 cm on every axis → 22.3, 5 cm → 68.7, 2 cm → 94.2, 0 → 100.
    package static func consistency(sdForwardCm: Double, sdLateralCm: Double, sdHeightCm: Double) -> Double {
        let f = sdForwardCm / 10, l = sdLateralCm / 10, h = sdHeightCm / 10
        return 100 * exp(-0.5 * (f * f + l * l + h * h))
    }

    /// Mean and population SD, or `nil` for no values.
    static func axis(_ values: [Double]) -> AxisStats? {
        MeasureSpread(values).map { AxisStats(meanCm: $0.mean, sdCm: $0.sd) }
    }
}

/// The mean and spread of each body measure over a set of shots (keys: ``BodyMeasure`` raw values).
/// JSON: `{"elbowFlexion": {"mean": 31.2, "sd": 6.4}, …}`.
package struct BodyMeasureStats: Codable, Sendable, Equatable {
    package var values: [BodyMeasure: MeasureSpread]

    /// The spread of each measure over `shots`' values; `nil` when no shot has any measure.
    package init?(_ shots: [BodyAngles]) {
        var v: [BodyMeasure: MeasureSpread] = [:]
        for m in BodyMeasure.allCases {
            if let spread = MeasureSpread(shots.compactMap { $0[m] }) { v[m] = spread }
        }
        guard !v.isEmpty else { return nil }
        values = v
    }

    /// The spread of `measure`, if any shot had it.
    package subscript(_ measure: BodyMeasure) -> MeasureSpread? { values[measure] }

    /// Reads the measures it knows and skips any other key (a document from a later version).
    package init(from decoder: any Decoder) throws {
        let raw = try [String: MeasureSpread](from: decoder)
        values = Dictionary(uniqueKeysWithValues: raw.compactMap { k, v in BodyMeasure(rawValue: k).map { ($0, v) } })
    }

    package func encode(to encoder: any Encoder) throws { try values.encode(to: encoder) }
}
