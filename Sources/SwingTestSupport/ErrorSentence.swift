/// The sentence style every error of ours follows (documented on `CategorizedError`): one line, starting
/// with a capital letter, a digit, a quoted name, a flag, or the path or file name it is about
/// (`notes.mp4 is not …`), and ending with a period (or `?`/`!`).
package enum ErrorSentence {
    /// Whether `sentence` follows the style.
    package static func isWellFormed(_ sentence: String) -> Bool {
        guard let first = sentence.first, let last = sentence.last, !sentence.contains("\n") else { return false }
        let firstWord = sentence.prefix { $0 != " " }
        let namesAFile = firstWord.contains("/") || firstWord.dropFirst().contains(".")
        let startsWell = first.isUppercase || first.isNumber || "'\"`/-.~".contains(first) || namesAFile
        return startsWell && ".?!".contains(last)
    }

    /// swift-argument-parser's own parse errors (not ours to phrase; printed after `Error: `).
    static let parserPhrases = ["Missing value for", "Missing expected argument", "Unknown option", "Unexpected argument",
                                "The value '", "Missing value", "Unknown command"]

    /// What is wrong with the error `stderr` reports, or `nil` when it says one well-formed sentence after
    /// `error: ` (ours) or `Error: ` (a `ValidationError` of ours, or a parse error worded by the parser).
    package static func problem(in stderr: String) -> String? {
        for line in stderr.split(separator: "\n", omittingEmptySubsequences: true) {
            for prefix in ["error: ", "Error: "] where line.hasPrefix(prefix) {
                let sentence = String(line.dropFirst(prefix.count))
                if prefix == "Error: ", parserPhrases.contains(where: sentence.hasPrefix) { return nil }
                return isWellFormed(sentence) ? nil : "not one sentence with a capital and a period: \(sentence)"
            }
        }
        return "no `error: ` line"
    }
}
