import Foundation
import SwingCore

/// Parses a class filter: comma-separated class ids (`0,32`) and/or class names (`person,sports ball`),
/// names matched case-insensitively against the model's `names`. `detect --classes` and the studio's
/// `classes=` both go through here.
package enum ClassFilter {
    /// - Parameters:
    ///   - text: The filter as the user typed it.
    ///   - names: The model's class names by id.
    ///   - what: How the user gave it (`--classes`, `classes`), named in the error sentence.
    /// - Returns: The class ids to keep.
    /// - Throws: ``VisionError`` (`invalidClassFilter`, status 24) for an empty list, an unknown name or an
    ///   id the model lacks.
    package static func parse(_ text: String, names: [Int: String], what: String = "--classes") throws -> Set<Int> {
        let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !items.isEmpty else {
            throw VisionError(.invalidClassFilter, "The class filter \(what) is empty: give class ids or names, e.g. 0,32.")
        }
        var ids = Set<Int>()
        for item in items {
            if let id = Int(item) {
                guard names[id] != nil else {
                    let range = names.keys.max().map { "0…\($0)" } ?? "none"
                    throw VisionError(.invalidClassFilter, "Class id \(id) is not in this model (its ids: \(range)); check \(what).")
                }
                ids.insert(id)
            } else if let id = names.first(where: { $0.value.lowercased() == item.lowercased() })?.key {
                ids.insert(id)
            } else {
                throw VisionError(.invalidClassFilter, "This model has no class named \"\(item)\"; check \(what).")
            }
        }
        return ids
    }
}
