import Foundation
import SwingCore

/// The model catalog (docs/interpreters.md): bundled, local and downloaded ONNX models.
///
/// Installs are atomic: a model is written under a temporary name in the models directory, checked
/// (checksum, ONNX parse), and only then renamed to `<id>.onnx`, so the catalog never lists a
/// half-written model. Everything here is file-system state; preferences live in SwingStore.
package struct ModelCatalog: Sendable {
    package let locations: CatalogLocations
    var downloader = HTTPDownloader()

    /// Creates a catalog over `locations` (directories are created on first install).
    package init(locations: CatalogLocations = .standard()) { self.locations = locations }

    /// Every model, local/downloaded first, then bundled; an id present twice keeps the installed one.
    /// A file that cannot be read as a model is listed with its ``CatalogModel/problem``, so one damaged
    /// entry neither hides the others nor stays out of reach of `models remove`.
    package func models() -> [CatalogModel] {
        var seen = Set<String>()
        var out: [CatalogModel] = []
        let dirs = [(locations.modelsDirectory, true)] + locations.bundledDirectories.map { ($0, false) }
        for (dir, installed) in dirs {
            for file in onnxFiles(in: dir) {
                let m: CatalogModel
                do { m = try describe(file, installed: installed) } catch {
                    m = damaged(file, installed: installed, problem: "\(error)")
                }
                guard seen.insert(m.id).inserted else { continue }
                out.append(m)
            }
        }
        return out.sorted { $0.id < $1.id }
    }

    /// The model with `id`.
    /// - Throws: ``CatalogError/modelNotFound(_:)``.
    package func model(id: String) throws -> CatalogModel {
        guard let m = models().first(where: { $0.id == id.lowercased() }) else { throw CatalogError.modelNotFound(id) }
        return m
    }

    /// The largest model accepted from a file, an upload or a download: an ONNX model cannot exceed
    /// protobuf's 2 GiB.
    package static var maxModelBytes: Int64 { HTTPDownloader.maxModelBytes }

    /// Copies a local `.onnx` (or a `.zip` holding one) into the catalog.
    /// - Parameters:
    ///   - file: the model or archive (a `.zip` by its extension).
    ///   - id: the id to use (default: derived from the file name).
    ///   - displayName: how messages and the sidecar name the file (default: its file name), for a file
    ///     staged under another name (an upload).
    /// - Throws: ``CatalogError/duplicateId(_:)``, ``CatalogError/notAnONNXModel(_:)``, zip errors.
    @discardableResult
    package func add(fileAt file: URL, id: String? = nil, displayName: String? = nil) throws -> CatalogModel {
        let shown = displayName ?? file.lastPathComponent
        guard FileManager.default.isReadableFile(atPath: file.path) else {
            throw CatalogError.notAnONNXModel(shown)
        }
        let modelId = ModelCatalog.makeId(id ?? file.deletingPathExtension().lastPathComponent)
        try ensureFree(modelId)
        return try install(file, id: modelId, displayName: shown,
                           sidecar: ModelSidecar(source: .local, url: nil, sha256: nil, downloadedAt: nil,
                                                 originalName: shown))
    }

    /// Downloads a model (`.onnx` or `.zip`) and installs it. A URL already installed is returned from
    /// the cache without network access; an interrupted download resumes from its partial file.
    /// - Parameters:
    ///   - url: http or https URL.
    ///   - sha256: expected SHA-256 of the downloaded bytes (hex); on mismatch nothing is installed and the
    ///     partial file is deleted.
    ///   - id: the id to use (default: derived from the URL's file name).
    ///   - progress: called as bytes arrive.
    /// - Throws: ``CatalogError`` (`downloadFailed`, `checksumMismatch`, `duplicateId`, …), `CancellationError`.
    @discardableResult
    package func download(_ url: URL, sha256: String? = nil, id: String? = nil,
                         progress: (@Sendable (DownloadProgress) -> Void)? = nil) async throws -> CatalogModel {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw CatalogError.unsupportedURL(url.absoluteString)
        }
        let expected = try sha256.map(ModelCatalog.normalizedChecksum)
        if let cached = models().first(where: { $0.url == url.absoluteString }),
           expected == nil || cached.sha256 == expected {
            return cached
        }
        let stem = url.deletingPathExtension().lastPathComponent
        let modelId = ModelCatalog.makeId(id ?? (stem.isEmpty ? "model" : stem))
        try ensureFree(modelId)
        let fm = FileManager.default
        try createDirectory(locations.cacheDirectory)
        let key = SHA256.hex(Data(url.absoluteString.utf8))
        let ext = url.pathExtension.lowercased() == "zip" ? "zip" : "onnx"
        let partial = locations.cacheDirectory.appendingPathComponent("\(key).\(ext).part")
        _ = try await downloader.fetch(url, into: partial, progress: progress)
        let actual: String
        do { actual = try SHA256.hex(ofFile: partial.path) } catch {
            throw CatalogError.fileSystem("cannot read the downloaded file \(partial.path)")
        }
        if let expected, actual != expected {
            try? fm.removeItem(at: partial)    // wrong bytes: resuming them would never help
            throw CatalogError.checksumMismatch(expected: expected, actual: actual)
        }
        let named = locations.cacheDirectory.appendingPathComponent("\(key)-\(modelId).\(ext)")
        try? fm.removeItem(at: named)
        try move(partial, to: named)
        defer { try? fm.removeItem(at: named) }
        return try install(named, id: modelId, displayName: url.lastPathComponent,
                           sidecar: ModelSidecar(source: .remote, url: url.absoluteString, sha256: actual,
                                                 downloadedAt: Date(), originalName: url.lastPathComponent))
    }

    /// Removes an installed (local or downloaded) model.
    /// - Throws: ``CatalogError/modelNotFound(_:)``, ``CatalogError/bundledModelReadOnly(_:)``.
    package func remove(id: String) throws {
        let m = try model(id: id)
        guard m.source != .bundled else { throw CatalogError.bundledModelReadOnly(m.id) }
        let fm = FileManager.default
        do { try fm.removeItem(atPath: m.path) } catch { throw CatalogError.fileSystem(error.localizedDescription) }
        try? fm.removeItem(at: sidecarURL(m.id))
    }

    // MARK: - Internals

    /// Lower-case; characters outside `a-z0-9._-` become `-`.
    package static func makeId(_ raw: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789._-")
        let id = String(raw.lowercased().map { allowed.contains($0) ? $0 : "-" })
        return id.isEmpty || id.allSatisfy({ $0 == "." }) ? "model" : id
    }

    static func normalizedChecksum(_ s: String) throws -> String {
        let hex = s.lowercased().trimmingCharacters(in: .whitespaces)
        guard hex.count == 64, hex.allSatisfy({ $0.isHexDigit }) else { throw CatalogError.invalidChecksum(s) }
        return hex
    }

    private func ensureFree(_ id: String) throws {
        if models().contains(where: { $0.id == id }) { throw CatalogError.duplicateId(id) }
    }

    private func sidecarURL(_ id: String) -> URL { locations.modelsDirectory.appendingPathComponent("\(id).json") }

    /// Stages `source` (model or zip) under a temporary name, validates it, writes the sidecar, then renames.
    private func install(_ source: URL, id: String, displayName: String, sidecar: ModelSidecar) throws -> CatalogModel {
        let fm = FileManager.default
        let dir = locations.modelsDirectory
        try createDirectory(dir)
        let staged = dir.appendingPathComponent(".incoming-\(UUID().uuidString).onnx")
        defer { try? fm.removeItem(at: staged) }
        do {
            if source.pathExtension.lowercased() == "zip" {
                try ZipModelExtractor.extractModel(from: source, to: staged)
            } else {
                do { try fm.copyItem(at: source, to: staged) } catch {
                    throw CatalogError.fileSystem("cannot copy \(displayName): \(error.localizedDescription)")
                }
            }
            // Not a model, or metadata nothing downstream could read: nothing installed.
            try Self.validateMetadata(ONNXModelReader.summary(of: staged).metadata, name: displayName)
        } catch let error as CatalogError where error.kind == .notAnONNXModel {
            throw CatalogError.notAnONNXModel(displayName)
        } catch let error as CatalogError where error.kind == .zipWithoutModel {
            throw CatalogError.zipWithoutModel(displayName)
        } catch let error as CatalogError where error.kind == .zipWithSeveralModels {
            throw CatalogError.zipWithSeveralModels(displayName, error.archiveEntries)
        }
        let final = dir.appendingPathComponent("\(id).onnx")
        guard !fm.fileExists(atPath: final.path) else { throw CatalogError.duplicateId(id) }
        let enc = JSONEncoder()
        enc.dateEncodingStrategy = .iso8601
        enc.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try enc.encode(sidecar).write(to: sidecarURL(id), options: .atomic)
        } catch { throw CatalogError.fileSystem("cannot write \(sidecarURL(id).path)") }
        try move(staged, to: final)
        return try describe(final, installed: true)
    }

    private func move(_ a: URL, to b: URL) throws {
        // rename(2): atomic within one file system, fails if the destination appeared meanwhile.
        guard rename(a.path, b.path) == 0 else {
            throw CatalogError.fileSystem("cannot move \(a.lastPathComponent) to \(b.path) (errno \(errno))")
        }
    }

    private func createDirectory(_ dir: URL) throws {
        do { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) } catch {
            throw CatalogError.fileSystem("cannot create \(dir.path): \(error.localizedDescription)")
        }
    }

    private func onnxFiles(in dir: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.lowercased().hasSuffix(".onnx") && !$0.hasPrefix(".") }.sorted()
            .map { dir.appendingPathComponent($0) }
    }

    /// The entry of a file that is not a usable model.
    private func damaged(_ file: URL, installed: Bool, problem: String) -> CatalogModel {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
        return CatalogModel(id: ModelCatalog.makeId(file.deletingPathExtension().lastPathComponent), name: file.lastPathComponent,
                            source: installed ? .local : .bundled, url: nil, path: file.path, task: nil, inputSize: nil,
                            labels: [], typeHint: ModelTypeHint.infer(task: nil, labels: []), sizeBytes: bytes,
                            sha256: nil, downloadedAt: nil, problem: problem)
    }

    /// Checks the metadata the catalog and the predictor read: present values must parse within the
    /// parser's limits (a `names` table 50 000 levels deep, an `imgsz` of 10^18 are refused).
    static func validateMetadata(_ md: [String: String], name: String) throws {
        let listed = { (text: String) in PythonLiteral.parse(text)?.classNames.map { $0.count <= YOLOModelInfo.maxClasses } ?? false }
        if let names = md["names"], CatalogMetadata.names(names) == nil, !listed(names) {
            throw CatalogError.invalidMetadata(name, "its `names` is not a class table (at most \(YOLOModelInfo.maxClasses) classes, nested at most \(PythonLiteral.maxDepth) deep)")
        }
        if let size = md["imgsz"] {
            guard let s = CatalogMetadata.imageSize(size), s.allSatisfy({ (1...YOLOModelInfo.maxImageSide).contains($0) }) else {
                throw CatalogError.invalidMetadata(name, "its `imgsz` \(size.prefix(40)) is not 1…\(YOLOModelInfo.maxImageSide) pixels")
            }
        }
        if let k = md["kpt_shape"] {
            guard let shape = PythonLiteral.parse(k)?.listValue?.compactMap(\.intValue), shape.count == 2,
                  (1...YOLOModelInfo.maxKeypoints).contains(shape[0]), (2...3).contains(shape[1]) else {
                throw CatalogError.invalidMetadata(name, "its `kpt_shape` \(k.prefix(40)) is not [1…\(YOLOModelInfo.maxKeypoints), 2 or 3]")
            }
        }
    }

    /// Builds the catalog entry for a model file.
    func describe(_ file: URL, installed: Bool) throws -> CatalogModel {
        let summary = try ONNXModelReader.summary(of: file)
        let id = ModelCatalog.makeId(file.deletingPathExtension().lastPathComponent)
        var sidecar: ModelSidecar?
        if installed, let data = try? Data(contentsOf: sidecarURL(id)) {
            let dec = JSONDecoder(); dec.dateDecodingStrategy = .iso8601
            sidecar = try? dec.decode(ModelSidecar.self, from: data)
        }
        let md = summary.metadata
        let labels = md["names"].flatMap(CatalogMetadata.names) ?? []
        let task = md["task"]?.lowercased()
        var size = md["imgsz"].flatMap(CatalogMetadata.imageSize)
        if size == nil, summary.inputShape.count == 4 {
            // NCHW (YOLO) or NHWC (MediaPipe's graphs, [1, H, W, 3]): [height, width] either way.
            let shape = summary.inputShape
            let nhwc = shape[3] == 3 && shape[1] > 3
            let (h, w) = nhwc ? (shape[1], shape[2]) : (shape[2], shape[3])
            if h > 0, w > 0 { size = [h, w] }
        }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
        return CatalogModel(
            id: id, name: (md["description"] ?? file.lastPathComponent).trimmingCharacters(in: .whitespacesAndNewlines),
            source: installed ? (sidecar?.source ?? .local) : .bundled, url: sidecar?.url, path: file.path,
            task: task, inputSize: size, labels: labels, typeHint: ModelTypeHint.infer(task: task, labels: labels),
            sizeBytes: bytes, sha256: sidecar?.sha256, downloadedAt: sidecar?.downloadedAt)
    }
}
