import SwingCore

/// Errors from the model catalog (discovery, download, install), in the ``CategorizedError`` shape:
/// each factory below builds the one sentence for its kind.
package struct CatalogError: CategorizedError {
    /// The category of failure.
    package enum Kind: Sendable, Equatable {
        case modelNotFound, unresolvedModel, duplicateId, notAnONNXModel, downloadFailed, checksumMismatch
        case invalidChecksum, unsupportedURL, zipWithoutModel, zipWithSeveralModels, unzipUnavailable
        case bundledModelReadOnly, fileSystem, invalidMetadata
    }

    /// The category of failure.
    package let kind: Kind
    /// One clear sentence.
    package let message: String
    /// The `.onnx` entries of an archive that holds several (``Kind/zipWithSeveralModels``).
    package let archiveEntries: [String]

    /// Creates an error of `kind` saying `message`.
    package init(_ kind: Kind, _ message: String, archiveEntries: [String] = []) {
        self.kind = kind; self.message = message; self.archiveEntries = archiveEntries
    }

    /// No catalog entry has `id`.
    package static func modelNotFound(_ id: String) -> CatalogError {
        CatalogError(.modelNotFound, "No model with id '\(id)' in the catalog (see `swingmaster models list`).")
    }
    /// A `--model`/`--detector` argument that is neither an existing file nor a catalog id.
    package static func unresolvedModel(_ argument: String) -> CatalogError {
        CatalogError(.unresolvedModel, "Model file not found: \(argument), and no catalog model has the id "
            + "'\(argument)' (see `swingmaster models list` for the ids).")
    }
    /// `id` is taken.
    package static func duplicateId(_ id: String) -> CatalogError {
        CatalogError(.duplicateId, "A model with id '\(id)' already exists in the catalog; remove it first or choose another id with --id.")
    }
    /// `file` is not an ONNX model.
    package static func notAnONNXModel(_ file: String) -> CatalogError {
        CatalogError(.notAnONNXModel, "'\(file)' is not a readable ONNX model.")
    }
    /// Downloading `url` failed because of `reason`.
    package static func downloadFailed(url: String, reason: String) -> CatalogError {
        CatalogError(.downloadFailed, "The download of \(url) failed: \(endingWithPeriod(reason))")
    }
    /// The downloaded file's digest is not the expected one.
    package static func checksumMismatch(expected: String, actual: String) -> CatalogError {
        CatalogError(.checksumMismatch, "The downloaded file's SHA-256 is \(actual), expected \(expected); nothing was installed.")
    }
    /// `text` is not a SHA-256 hex digest.
    package static func invalidChecksum(_ text: String) -> CatalogError {
        CatalogError(.invalidChecksum, "'\(text)' is not a SHA-256 checksum (64 hexadecimal digits).")
    }
    /// `url` is not http(s).
    package static func unsupportedURL(_ url: String) -> CatalogError {
        CatalogError(.unsupportedURL, "'\(url)' is not an http(s) URL.")
    }
    /// The archive holds no model.
    package static func zipWithoutModel(_ file: String) -> CatalogError {
        CatalogError(.zipWithoutModel, "The archive '\(file)' holds no .onnx model.")
    }
    /// The archive holds several models (`names`).
    package static func zipWithSeveralModels(_ file: String, _ names: [String]) -> CatalogError {
        CatalogError(.zipWithSeveralModels,
                     "The archive '\(file)' holds several .onnx models (\(names.joined(separator: ", "))); expected one.",
                     archiveEntries: names)
    }
    /// `unzip` is missing.
    package static let unzipUnavailable = CatalogError(
        .unzipUnavailable, "Reading .zip models needs the `unzip` command; install it (apt-get install unzip).")
    /// Bundled models cannot be removed.
    package static func bundledModelReadOnly(_ id: String) -> CatalogError {
        CatalogError(.bundledModelReadOnly, "'\(id)' is a bundled model and cannot be removed.")
    }
    /// A catalog file could not be read or written because of `reason`.
    package static func fileSystem(_ reason: String) -> CatalogError {
        CatalogError(.fileSystem, "A model catalog file could not be used: \(endingWithPeriod(reason))")
    }
    /// A model whose metadata is out of the supported limits (named in `reason`).
    package static func invalidMetadata(_ file: String, _ reason: String) -> CatalogError {
        CatalogError(.invalidMetadata, "'\(file)' cannot be used: \(endingWithPeriod(reason))")
    }

    package var statusCode: Int32 {
        switch kind {
        case .downloadFailed: StatusCode.downloadFailed
        case .checksumMismatch: StatusCode.checksumMismatch
        case .modelNotFound: StatusCode.notFound
        case .notAnONNXModel, .unresolvedModel, .invalidMetadata: StatusCode.modelUnreadable
        default: StatusCode.catalogError
        }
    }
}
