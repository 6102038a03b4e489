/// A value of the small Python-literal subset Ultralytics writes into ONNX metadata
/// (`str(dict)`, `str(list)`): dicts, lists, tuples, strings, ints, floats, booleans and `None`.
package indirect enum PythonLiteral: Sendable, Equatable {
    case dict([(PythonLiteral, PythonLiteral)])
    case list([PythonLiteral])
    case string(String)
    case int(Int)
    case float(Double)
    case bool(Bool)
    case none

    package static func == (a: PythonLiteral, b: PythonLiteral) -> Bool {
        switch (a, b) {
        case let (.dict(x), .dict(y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case let (.list(x), .list(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.int(x), .int(y)): return x == y
        case let (.float(x), .float(y)): return x == y
        case let (.bool(x), .bool(y)): return x == y
        case (.none, .none): return true
        default: return false
        }
    }

    /// Deepest nesting of dicts, lists and tuples accepted (Ultralytics writes at most 3; a model with
    /// 50 000 levels overflowed the stack of the recursive parser).
    package static let maxDepth = 32
    /// Longest metadata text parsed (Ultralytics' `names` for 10 000 classes is ~200 KB).
    package static let maxLength = 4 << 20

    /// Parses one literal; `nil` when the text is not a literal of the supported subset, is longer than
    /// ``maxLength`` or nests deeper than ``maxDepth``.
    package static func parse(_ text: String) -> PythonLiteral? {
        guard text.utf8.count <= maxLength else { return nil }
        var p = Parser(Array(text.unicodeScalars))
        guard let v = p.value() else { return nil }
        p.skipSpace()
        return p.atEnd ? v : nil
    }

    /// The integer value (also for floats with no fraction, e.g. `640.0`).
    package var intValue: Int? {
        switch self {
        case .int(let i): return i
        case .float(let d): return d.rounded() == d && abs(d) < 1e15 ? Int(d) : nil
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }

    /// The list or tuple elements.
    package var listValue: [PythonLiteral]? { if case .list(let l) = self { return l }; return nil }

    /// Text of a string, or the literal spelled back for numbers (Ultralytics allows `{0: 1}`-style names).
    package var stringValue: String? {
        switch self {
        case .string(let s): return s
        case .int(let i): return String(i)
        case .float(let d): return String(d)
        default: return nil
        }
    }

    /// Interprets the literal as a class-name table: a dict `{id: name}` or a list of names.
    package var classNames: [Int: String]? {
        switch self {
        case .dict(let pairs):
            var out: [Int: String] = [:]
            for (k, v) in pairs {
                guard let id = k.intValue, let name = v.stringValue else { return nil }
                out[id] = name
            }
            return out
        case .list(let items):
            var out: [Int: String] = [:]
            for (i, v) in items.enumerated() {
                guard let name = v.stringValue else { return nil }
                out[i] = name
            }
            return out
        default: return nil
        }
    }
}

private struct Parser {
    let s: [Unicode.Scalar]
    var i = 0
    var depth = 0
    init(_ s: [Unicode.Scalar]) { self.s = s }
    var atEnd: Bool { i >= s.count }
    var peek: Unicode.Scalar? { i < s.count ? s[i] : nil }

    mutating func skipSpace() {
        while let c = peek, c == " " || c == "\n" || c == "\t" || c == "\r" { i += 1 }
    }

    mutating func value() -> PythonLiteral? {
        skipSpace()
        guard let c = peek else { return nil }
        switch c {
        case "{": return container(close: "}", isDict: true)
        case "[": return container(close: "]", isDict: false)
        case "(": return container(close: ")", isDict: false)
        case "'", "\"": return strings()
        default:
            if c == "-" || c == "+" || c == "." || ("0"..."9").contains(c) { return number() }
            return word()
        }
    }

    mutating func container(close: Unicode.Scalar, isDict: Bool) -> PythonLiteral? {
        guard depth < PythonLiteral.maxDepth else { return nil }
        depth += 1
        defer { depth -= 1 }
        i += 1
        var items: [PythonLiteral] = [], pairs: [(PythonLiteral, PythonLiteral)] = []
        while true {
            skipSpace()
            if peek == close { i += 1; break }
            guard let k = value() else { return nil }
            if isDict {
                skipSpace()
                guard peek == ":" else { return nil }
                i += 1
                guard let v = value() else { return nil }
                pairs.append((k, v))
            } else {
                items.append(k)
            }
            skipSpace()
            if peek == "," { i += 1; continue }  // also allows a trailing comma
            if peek == close { i += 1; break }
            return nil
        }
        return isDict ? .dict(pairs) : .list(items)
    }

    /// One or more adjacent string literals (Python concatenates `'a' "b"`).
    mutating func strings() -> PythonLiteral? {
        var out = ""
        repeat {
            guard let part = string() else { return nil }
            out += part
            skipSpace()
        } while peek == "'" || peek == "\""
        return .string(out)
    }

    mutating func string() -> String? {
        guard let quote = peek else { return nil }
        i += 1
        var out = String.UnicodeScalarView()
        while let c = peek {
            i += 1
            if c == quote { return String(out) }
            if c == "\\" {
                guard let e = peek else { return nil }
                i += 1
                switch e {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "0": out.append("\0")
                case "a": out.append("\u{07}")
                case "b": out.append("\u{08}")
                case "f": out.append("\u{0C}")
                case "v": out.append("\u{0B}")
                case "\n": break  // line continuation
                case "x": guard let u = hex(2) else { return nil }; out.append(u)
                case "u": guard let u = hex(4) else { return nil }; out.append(u)
                case "U": guard let u = hex(8) else { return nil }; out.append(u)
                case "\\", "'", "\"": out.append(e)
                default: out.append("\\"); out.append(e)  // Python keeps unknown escapes verbatim
                }
            } else {
                out.append(c)
            }
        }
        return nil  // unterminated
    }

    mutating func hex(_ n: Int) -> Unicode.Scalar? {
        guard i + n <= s.count else { return nil }
        let text = String(String.UnicodeScalarView(s[i..<(i + n)]))
        i += n
        guard let v = UInt32(text, radix: 16) else { return nil }
        return Unicode.Scalar(v)
    }

    mutating func number() -> PythonLiteral? {
        let start = i
        while let c = peek, c == "-" || c == "+" || c == "." || c == "e" || c == "E" || c == "_"
            || ("0"..."9").contains(c) { i += 1 }
        let text = String(String.UnicodeScalarView(s[start..<i])).replacingUnderscores()
        if let v = Int(text) { return .int(v) }
        if let d = Double(text) { return .float(d) }
        return nil
    }

    mutating func word() -> PythonLiteral? {
        let start = i
        while let c = peek, c.properties.isAlphabetic || c == "_" { i += 1 }
        switch String(String.UnicodeScalarView(s[start..<i])) {
        case "True": return .bool(true)
        case "False": return .bool(false)
        case "None": return PythonLiteral.none
        case "inf": return .float(.infinity)
        case "nan": return .float(.nan)
        default: return nil
        }
    }
}

private extension String {
    func replacingUnderscores() -> String { String(unicodeScalars.filter { $0 != "_" }) }
}
