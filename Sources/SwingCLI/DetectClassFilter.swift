import Foundation
import SwingCore

/// Parses `--classes`: comma-separated class ids (`0,32`) and/or class names (`person,sports ball`),
/// names matched case-insensitively against the model's `names`.
enum DetectClassFilter {
    /// - Parameters:
    ///   - text: The flag's value.
    ///   - names: The model's class names by id.
    /// - Returns: The class ids to keep.
    /// - Throws: `CLIError` (status 24) for an empty list, an unknown name or an id the model lacks.
    static func parse(_ text: String, names: [Int: String]) throws -> Set<Int> {
        let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !items.isEmpty else {
            throw CLIError.invalidClassFilter("--classes is empty: give class ids or names, e.g. --classes 0,32.")
        }
        var ids = Set<Int>()
        for item in items {
            if let id = Int(item) {
                guard names[id] != nil else {
                    let range = names.keys.max().map { "0…\($0)" } ?? "none"
                    throw CLIError.invalidClassFilter("--classes: class id \(id) is not in this model (its ids: \(range)).")
                }
                ids.insert(id)
            } else if let id = names.first(where: { $0.value.lowercased() == item.lowercased() })?.key {
                ids.insert(id)
            } else {
                throw CLIError.invalidClassFilter("--classes: this model has no class named \"\(item)\".")
            }
        }
        return ids
    }
}

extension CLIError {
    /// `--classes` names a class the model does not have (status 24).
    static func invalidClassFilter(_ message: String) -> CLIError {
        CLIError(.invalidClassFilter, message)
    }
}
