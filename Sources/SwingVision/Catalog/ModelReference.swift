import Foundation

/// A model named on the command line (`detect --model X`, `analyze --detector X`), resolved to a file.
package struct ModelReference: Sendable, Equatable {
    /// The `.onnx` file to load.
    package var path: String
    /// The catalog entry when `path` is a catalog model (named by id, or by the path of a file the catalog
    /// lists); `nil` for a plain file outside the catalog. Only catalog models have stored preferences
    /// and usage records.
    package var catalogModel: CatalogModel?

    /// Creates a reference.
    package init(path: String, catalogModel: CatalogModel?) { self.path = path; self.catalogModel = catalogModel }
}

extension ModelCatalog {
    /// Resolves what the user typed for a model: an existing file path wins, else a catalog model id.
    ///
    /// A file that the catalog itself lists (a bundled model, or one installed in
    /// `$SWINGMASTER_HOME/models`) resolves to that catalog model, so its preferences apply whichever way
    /// it was named.
    ///
    /// - Parameter argument: a path to an `.onnx` file or a catalog model id (case-insensitive).
    /// - Returns: the file to load and, for catalog models, the catalog entry.
    /// - Throws: ``CatalogError/unresolvedModel(_:)`` when `argument` is neither an existing file nor a
    ///   catalog id (the message says how to list the ids).
    /// - Complexity: Reads the ONNX headers of the catalog's models only when `argument` is not a file, or
    ///   when it is a file inside one of the catalog's directories.
    package func resolve(_ argument: String) throws -> ModelReference {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: argument, isDirectory: &isDirectory), !isDirectory.boolValue {
            let file = URL(fileURLWithPath: argument).standardizedFileURL.resolvingSymlinksInPath()
            let directories = ([locations.modelsDirectory] + locations.bundledDirectories)
                .map { $0.standardizedFileURL.resolvingSymlinksInPath().path }
            guard directories.contains(file.deletingLastPathComponent().path) else {
                return ModelReference(path: argument, catalogModel: nil)
            }
            let listed = models().first {
                $0.problem == nil && URL(fileURLWithPath: $0.path).standardizedFileURL.resolvingSymlinksInPath().path == file.path
            }
            return ModelReference(path: argument, catalogModel: listed)
        }
        if let m = models().first(where: { $0.id == argument.lowercased() }) {
            if let problem = m.problem { throw CatalogError.invalidMetadata(m.id, "the catalog file is damaged (\(problem)); remove it with `swingmaster models remove \(m.id)`") }
            return ModelReference(path: m.path, catalogModel: m)
        }
        throw CatalogError.unresolvedModel(argument)
    }
}
