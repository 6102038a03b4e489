/// Parses the few Ultralytics metadata values the catalog shows (`names`, `imgsz`, `task`).
///
/// Ultralytics writes `names` as a *Python dict literal* (`{0: 'person', 1: "it's"}`); this reader
/// accepts that and JSON (`{"0": "person"}`).
enum CatalogMetadata {
    /// Class names in id order (gaps filled with the id as text); `nil` if unparsable.
    /// Uses the YOLO metadata's ``PythonLiteral`` parser, so the catalog and the predictor read
    /// `names` identically; JSON-style string keys (`"0"`) are accepted too.
    static func names(_ text: String) -> [String]? {
        guard case .dict(let pairs)? = PythonLiteral.parse(text) else { return nil }
        var dict: [Int: String] = [:]
        for (k, v) in pairs {
            guard let id = k.intValue ?? k.stringValue.flatMap({ Int($0) }), id >= 0, id < YOLOModelInfo.maxClasses,
                  let name = v.stringValue else { return nil }
            dict[id] = name
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
