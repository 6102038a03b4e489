import ArgumentParser
import Foundation
import SwingCore
import SwingPipeline
import SwingVision

/// `swingmaster models list | info ID | add PATH | download URL [--sha256] | remove ID | favorite ID |
/// hide ID | set ID --conf --iou` — the model catalog (files: bundled `Models/`, `$SWINGMASTER_HOME/models`)
/// plus per-model preferences in the database (`$SWINGMASTER_HOME/swingmaster.sqlite`).
struct ModelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models",
        abstract: "List, inspect, add, download and configure detection models.",
        subcommands: [List.self, Info.self, Add.self, Download.self, Remove.self, Favorite.self, Hide.self, SetThresholds.self],
        defaultSubcommand: List.self
    )

    /// Detection sessions `models info` shows by default (newest first).
    static let defaultSessionLimit = 10

    /// Options for an id argument shared by several subcommands.
    struct ModelId: ParsableArguments {
        @Argument(help: "Model id (see `swingmaster models list`).") var id: String
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Models: favourites first, then recently used.")
        @OptionGroup var store: StoreOptions
        @Flag(help: "Include hidden models.") var all = false
        @Flag(help: "JSON output.") var json = false
        func run() async throws {
            let models = try await store.open().models(ModelCatalog().models(), includeHidden: all, checksums: ModelChecksums())
            if json {
                try Console.printJSON(models.map(\.view))
                return
            }
            guard !models.isEmpty else {
                try Console.line("No models. Add one with `swingmaster models add FILE.onnx` or `models download URL`.")
                return
            }
            try Console.line(ModelsFormat.table(models), terminator: "")
            for m in models.map(\.view) where m.problem != nil {
                Console.warn("note: \(m.id) is damaged (\(m.problem ?? "")); remove it with `swingmaster models remove \(m.id)`")
            }
        }
    }

    struct Info: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Everything known about one model, as JSON.")
        @OptionGroup var store: StoreOptions
        @OptionGroup var model: ModelId
        @Option(name: .customLong("sessions"), help: "Include this many of the model's newest runs (`runs`: each use by `detect`, `analyze --detector` or the studio).")
        var sessionLimit = ModelsCommand.defaultSessionLimit
        func run() async throws {
            let m = try ModelCatalog().model(id: model.id)
            try Console.printJSON(try await store.open().view(of: m, runs: sessionLimit, checksums: ModelChecksums()))
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Copy a local .onnx (or a .zip holding one) into the catalog.")
        @Argument(help: "Path to the .onnx or .zip file.") var path: String
        @Option(help: "Id to use (default: the file name).") var id: String?
        func run() async throws {
            let m = try ModelCatalog().add(fileAt: URL(fileURLWithPath: path), id: id)
            try Console.line("Added \(m.id) (\(m.task ?? "unknown task"), \(m.labels.count) classes, \(m.typeHint.rawValue)).")
        }
    }

    struct Download: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Download a model (.onnx or .zip) by URL; resumes an interrupted download.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "http(s) URL of the .onnx or .zip.") var url: String
        @Option(help: "Expected SHA-256 (hex); nothing is installed on mismatch.") var sha256: String?
        @Option(help: "Id to use (default: the URL's file name).") var id: String?
        @Flag(help: "Draw the progress bar even when stderr is not a terminal.") var progress = false

        func validate() throws {
            guard let u = URL(string: url), u.scheme != nil else { throw ValidationError("'\(url)' is not a URL.") }
        }

        func run() async throws {
            guard let u = URL(string: url) else { throw ValidationError("'\(url)' is not a URL.") }
            let bar = ProgressBar(label: "download", force: progress)
            let m = try await ModelCatalog().download(u, sha256: sha256, id: id) { p in
                if let f = p.fraction { bar.update(f) }
            }
            bar.finish()
            try await store.open().recordDownload(of: m)
            try Console.line("Installed \(m.id) from \(url) (\(m.sizeBytes) bytes, sha256 \(m.sha256 ?? "?")).")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an installed model and its preferences.")
        @OptionGroup var store: StoreOptions
        @OptionGroup var model: ModelId
        func run() async throws {
            let id = try ModelCatalog().model(id: model.id).id
            try ModelCatalog().remove(id: id)
            try await store.open().forgetModel(id: id)
            try Console.line("Removed \(id).")
        }
    }

    struct Favorite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mark a model as a favourite (listed first).")
        @OptionGroup var store: StoreOptions
        @OptionGroup var model: ModelId
        @Flag(help: "Unmark instead.") var off = false
        func run() async throws {
            let id = try ModelCatalog().model(id: model.id).id
            try await store.open().setFavorite(!off, model: id)
            try Console.line(off ? "\(id) is no longer a favourite." : "\(id) is a favourite.")
        }
    }

    struct Hide: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Hide a model from `models list` (see it with --all).")
        @OptionGroup var store: StoreOptions
        @OptionGroup var model: ModelId
        @Flag(help: "Show it again instead.") var off = false
        func run() async throws {
            let id = try ModelCatalog().model(id: model.id).id
            try await store.open().setHidden(!off, model: id)
            try Console.line(off ? "\(id) is shown." : "\(id) is hidden.")
        }
    }

    struct SetThresholds: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set per-model thresholds and interpreter options.",
            discussion: "Thresholds apply when the model is used without --conf/--iou; --clear resets both.")
        @OptionGroup var store: StoreOptions
        @OptionGroup var model: ModelId
        @Option(help: "Confidence threshold in (0, 1).") var conf: Double?
        @Option(help: "NMS IoU threshold in (0, 1).") var iou: Double?
        @Flag(help: "Clear both thresholds.") var clear = false
        @Option(name: .customLong("interpreter-config"), help: "Interpreter options as a JSON object ('' clears).")
        var interpreterConfig: String?

        func validate() throws {
            for (name, v) in [("--conf", conf), ("--iou", iou)] {
                if let v, !(v > 0 && v < 1) { throw ValidationError("\(name) must be between 0 and 1 (exclusive).") }
            }
            guard clear || conf != nil || iou != nil || interpreterConfig != nil else {
                throw ValidationError("Give --conf, --iou, --clear or --interpreter-config.")
            }
            if let j = interpreterConfig, !j.isEmpty,
               (try? JSONSerialization.jsonObject(with: Data(j.utf8))) as? [String: Any] == nil {
                throw ValidationError("--interpreter-config must be a JSON object.")
            }
        }

        func run() async throws {
            let id = try ModelCatalog().model(id: model.id).id
            let stored = try await store.open().setDefaults(conf: conf, iou: iou, clear: clear, interpreterConfig: interpreterConfig, model: id)
            try Console.line("\(id): conf \(stored.conf.map { String($0) } ?? "default"), iou \(stored.iou.map { String($0) } ?? "default")"
                  + (stored.interpreterOptions.map { ", interpreter \(ModelsFormat.json($0))" } ?? ""))
        }
    }
}

/// Plain-text table for `models list`.
enum ModelsFormat {
    static func table(_ models: [(view: ModelView, stored: ModelDefaults)]) -> String {
        var rows = [["", "ID", "TASK", "TYPE", "SOURCE", "INPUT", "CLASSES", "SIZE", "CONF", "IOU", "USES"]]
        for (m, stored) in models {
            rows.append([
                m.favorite ? "*" : (m.hidden ? "h" : ""), m.id, m.taskDescription, m.kind == .blazepose ? "BlazePose" : m.typeHint.rawValue,
                m.source.rawValue, m.inputSize.map { $0.map(String.init).joined(separator: "x") } ?? "?",
                m.problem == nil ? String(m.labels.count) : "DAMAGED", byteCount(m.sizeBytes),
                stored.conf.map { String($0) } ?? "-", stored.iou.map { String($0) } ?? "-",
                String(m.useCount),
            ])
        }
        let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) + "\n"
        }.joined()
    }

    /// `value` as one line of JSON, keys sorted.
    static func json(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }

    static func byteCount(_ n: Int64) -> String {
        n >= 1 << 20 ? String(format: "%.1f MB", Double(n) / 1_048_576) : String(format: "%.1f KB", Double(n) / 1024)
    }
}
