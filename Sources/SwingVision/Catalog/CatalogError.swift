import SwingCore

/// Errors from the model catalog (discovery, download, install).
public enum CatalogError: UserFacingError, Equatable {
    case modelNotFound(String)
    /// A `--model`/`--detector` argument that is neither an existing file nor a catalog id.
    case unresolvedModel(String)
    case duplicateId(String)
    case notAnONNXModel(String)
    case downloadFailed(url: String, reason: String)
    case checksumMismatch(expected: String, actual: String)
    case invalidChecksum(String)
    case unsupportedURL(String)
    case zipWithoutModel(String)
    case zipWithSeveralModels(String, [String])
    case unzipUnavailable
    case bundledModelReadOnly(String)
    case fileSystem(String)
    /// A model whose metadata is out of the supported limits (named in the reason).
    case invalidMetadata(String, String)

    public var description: String {
        switch self {
        case .modelNotFound(let id): return "no model with id '\(id)' in the catalog (see `swingmaster models list`)."
        case .unresolvedModel(let arg):
            return "model file not found: \(arg), and no catalog model has the id '\(arg)' "
                + "(see `swingmaster models list` for the ids)."
        case .duplicateId(let id):
            return "a model with id '\(id)' already exists in the catalog; remove it first or choose another id with --id."
        case .notAnONNXModel(let f): return "'\(f)' is not a readable ONNX model."
        case .downloadFailed(let url, let why): return "download of \(url) failed: \(why)"
        case .checksumMismatch(let e, let a):
            return "the downloaded file's SHA-256 is \(a), expected \(e); nothing was installed."
        case .invalidChecksum(let s): return "'\(s)' is not a SHA-256 checksum (64 hexadecimal digits)."
        case .unsupportedURL(let u): return "'\(u)' is not an http(s) URL."
        case .zipWithoutModel(let f): return "the archive '\(f)' holds no .onnx model."
        case .zipWithSeveralModels(let f, let names):
            return "the archive '\(f)' holds several .onnx models (\(names.joined(separator: ", "))); expected one."
        case .unzipUnavailable: return "reading .zip models needs the `unzip` command; install it (apt-get install unzip)."
        case .bundledModelReadOnly(let id): return "'\(id)' is a bundled model and cannot be removed."
        case .fileSystem(let why): return "model catalog file error: \(why)"
        case .invalidMetadata(let f, let why): return "'\(f)' cannot be used: \(why)."
        }
    }

    public var statusCode: Int32 {
        switch self {
        case .downloadFailed: return StatusCode.downloadFailed
        case .checksumMismatch: return StatusCode.checksumMismatch
        case .modelNotFound: return StatusCode.notFound
        case .notAnONNXModel, .unresolvedModel, .invalidMetadata: return StatusCode.modelUnreadable
        default: return StatusCode.catalogError
        }
    }
}
