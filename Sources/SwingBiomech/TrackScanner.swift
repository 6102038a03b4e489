import SwingCore

/// A single-pass reader for the `pose --json` track shape, ~50× faster than `JSONDecoder` on long tracks
/// (a 10-minute 60 fps track is ~65 MB of JSON). It reads only the keys the biomechanics needs and
/// skips every other value. On anything it does not understand it returns `nil`, and ``MeasureIO``
/// falls back to `JSONDecoder`, which either accepts the input or produces the precise error message —
/// so the fast path can never change what is accepted. Numbers are converted with `Double(_:)`
/// (correctly rounded, like every conforming JSON reader).
struct TrackScanner {
    private let bytes: [UInt8]
    private var i = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The samples in file order, or `nil` if the input is not in the expected shape.
    static func samples(_ bytes: [UInt8]) -> [PoseSample]? {
        var s = TrackScanner(bytes)
        return s.document()
    }

    private struct Failure: Error {}

    private mutating func document() -> [PoseSample]? {
        do {
            var frames: [PoseSample]?
            try object { key, s in
                if key == "frames" { frames = try s.array { s in try s.frame() } } else { try s.skipValue() }
            }
            skipSpace()
            guard i == bytes.count else { return nil }
            return frames
        } catch {
            return nil
        }
    }

    private mutating func frame() throws -> PoseSample {
        var time: Double?
        var score: Double?
        var image: [(x: Double, y: Double, v: Double?)]?
        var world: [(x: Double, y: Double, z: Double, v: Double?)]?
        try object { key, s in
            switch key {
            case "time": time = try s.number()
            case "score": score = try s.nullOr { try $0.number() }
            case "landmarks":
                image = try s.nullOr { try $0.array { s in
                    let p = try s.point()
                    guard let x = p.x, let y = p.y else { throw Failure() }
                    return (x, y, p.v)
                } }
            case "worldLandmarks":
                world = try s.nullOr { try $0.array { s in
                    let p = try s.point()
                    guard let x = p.x, let y = p.y, let z = p.z else { throw Failure() }
                    return (x, y, z, p.v)
                } }
            default: try s.skipValue()
            }
        }
        guard let time else { throw Failure() }
        let w = world ?? []
        var visibility: [Double]?
        if let lm = image, !lm.isEmpty, lm.allSatisfy({ $0.v != nil }) {
            visibility = lm.compactMap(\.v)
        } else if !w.isEmpty, w.allSatisfy({ $0.v != nil }) {
            visibility = w.compactMap(\.v)
        }
        return PoseSample(time: time, world: w.map { Vec3(x: $0.x, y: $0.y, z: $0.z) },
                          image: image.flatMap { $0.isEmpty ? nil : $0.map { Point2(x: $0.x, y: $0.y) } },
                          visibility: visibility, score: score)
    }

    private mutating func point() throws -> (x: Double?, y: Double?, z: Double?, v: Double?) {
        var p: (x: Double?, y: Double?, z: Double?, v: Double?) = (nil, nil, nil, nil)
        try object { key, s in
            switch key {
            // Nulls are read as absent; the callers require x, y (and z for world points) to be present.
            case "x": p.x = try s.nullOr { try $0.number() }
            case "y": p.y = try s.nullOr { try $0.number() }
            case "z": p.z = try s.nullOr { try $0.number() }
            case "visibility": p.v = try s.nullOr { try $0.number() }
            default: try s.skipValue()
            }
        }
        return p
    }

    // MARK: - JSON primitives

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    private mutating func expect(_ c: UInt8) throws {
        skipSpace()
        guard i < bytes.count, bytes[i] == c else { throw Failure() }
        i += 1
    }

    private mutating func peek() -> UInt8? {
        skipSpace()
        return i < bytes.count ? bytes[i] : nil
    }

    private mutating func object(_ body: (String, inout TrackScanner) throws -> Void) throws {
        try expect(UInt8(ascii: "{"))
        if peek() == UInt8(ascii: "}") { i += 1; return }
        while true {
            let key = try string()
            try expect(UInt8(ascii: ":"))
            try body(key, &self)
            switch peek() {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "}"): i += 1; return
            default: throw Failure()
            }
        }
    }

    private mutating func array<T>(_ element: (inout TrackScanner) throws -> T) throws -> [T] {
        try expect(UInt8(ascii: "["))
        var out: [T] = []
        if peek() == UInt8(ascii: "]") { i += 1; return out }
        while true {
            out.append(try element(&self))
            switch peek() {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "]"): i += 1; return out
            default: throw Failure()
            }
        }
    }

    private mutating func nullOr<T>(_ value: (inout TrackScanner) throws -> T) throws -> T? {
        if peek() == UInt8(ascii: "n") { try literal("null"); return nil }
        return try value(&self)
    }

    private mutating func literal(_ word: StaticString) throws {
        skipSpace()
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw Failure() }
        let ok = word.withUTF8Buffer { w in (0..<n).allSatisfy { bytes[i + $0] == w[$0] } }
        guard ok else { throw Failure() }
        i += n
    }

    /// A string without escapes (keys here are plain ASCII); escaped strings are skipped by `skipString`.
    private mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""))
        let start = i
        while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
            if bytes[i] == UInt8(ascii: "\\") { throw Failure() }   // let JSONDecoder handle escapes
            i += 1
        }
        guard i < bytes.count else { throw Failure() }
        defer { i += 1 }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    private mutating func skipString() throws {
        try expect(UInt8(ascii: "\""))
        while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
            i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
        }
        guard i < bytes.count else { throw Failure() }
        i += 1
    }

    private mutating func number() throws -> Double {
        skipSpace()
        let start = i
        while i < bytes.count {
            let c = bytes[i]
            guard (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
                    || c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") else { break }
            i += 1
        }
        guard i > start, let v = Double(String(decoding: bytes[start..<i], as: UTF8.self)), v.isFinite else { throw Failure() }
        return v
    }

    private mutating func skipValue() throws {
        switch peek() {
        case UInt8(ascii: "{"): try object { _, s in try s.skipValue() }
        case UInt8(ascii: "["): _ = try array { s in try s.skipValue() }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: _ = try number()
        }
    }
}
