/// Parses the few Ultralytics metadata values the catalog shows (`names`, `imgsz`, `task`).
///
/// Ultralytics writes `names` as a *Python dict literal* (`{0: 'person', 1: "it's"}`); this reader
/// accepts that and JSON (`{"0": "person"}`), single/double quotes and backslash escapes.
enum CatalogMetadata {
    /// Class names in id order (gaps filled with the id as text); `nil` if unparsable.
    static func names(_ text: String) -> [String]? {
        var s = Substring(text).unicodeScalars[...]
        func skipSpace() { while let c = s.first, c.properties.isWhitespace { s.removeFirst() } }
        func quoted() -> String? {
            guard let q = s.first, q == "'" || q == "\"" else { return nil }
            s.removeFirst()
            var out = String.UnicodeScalarView()
            while let c = s.first {
                s.removeFirst()
                if c == q { return String(out) }
                if c == "\\", let n = s.first {
                    s.removeFirst()
                    switch n { case "n": out.append("\n"); case "t": out.append("\t"); default: out.append(n) }
                } else { out.append(c) }
            }
            return nil
        }
        func integer() -> Int? {
            skipSpace()
            if let v = quoted() { return Int(v) }
            var digits = ""
            while let c = s.first, ("0"..."9").contains(c) || (digits.isEmpty && c == "-") { digits.unicodeScalars.append(c); s.removeFirst() }
            return Int(digits)
        }
        skipSpace()
        guard s.first == "{" else { return nil }
        s.removeFirst()
        var dict: [Int: String] = [:]
        while true {
            skipSpace()
            if s.first == "}" { break }
            guard let k = integer(), k >= 0, k < 100_000 else { return nil }
            skipSpace()
            guard s.first == ":" else { return nil }
            s.removeFirst(); skipSpace()
            guard let v = quoted() else { return nil }
            dict[k] = v
            skipSpace()
            if s.first == "," { s.removeFirst() } else if s.first != "}" { return nil }
        }
        guard let maxKey = dict.keys.max() else { return [] }
        return (0...maxKey).map { dict[$0] ?? String($0) }
    }

    /// `[640, 640]`, `(640, 640)` or `640` → [640, 640].
    static func imageSize(_ text: String) -> [Int]? {
        let nums = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        switch nums.count {
        case 1: return [nums[0], nums[0]]
        case 2: return nums
        default: return nil
        }
    }
}
