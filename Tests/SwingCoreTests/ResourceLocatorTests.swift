import Foundation
import SwingCore
import Testing

/// One grammar for the folders the package ships: a variable names one folder or several (`:`-separated),
/// else the nearest one walking up from each start.
@Suite struct ResourceLocatorTests {
    @Test func aVariableNamesOneOrSeveralFoldersAndWalksFindTheNearest() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("locator-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let deep = root.appendingPathComponent("a/b/c"), near = root.appendingPathComponent("a/b/Models"),
            far = root.appendingPathComponent("a/Models")
        for dir in [deep, near, far] { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
        func paths(_ urls: [URL]) -> [String] { urls.map { $0.standardizedFileURL.path } }

        // Walking up: the nearest folder per start, without repeats.
        #expect(paths(ResourceLocator.folders("Models", environment: [:], starts: [deep])) == [near.path])
        #expect(paths(ResourceLocator.folders("Models", environment: [:], starts: [deep, root.appendingPathComponent("a"), deep]))
                == [near.path, far.path])
        // The variable, one folder or a list, wins over the walk; `folder` takes the first that passes.
        let env = ["SWINGMASTER_MODELS": "/nonexistent/models:\(far.path)"]
        #expect(paths(ResourceLocator.folders("Models", variable: "SWINGMASTER_MODELS", environment: env, starts: [deep]))
                == ["/nonexistent/models", far.path])
        #expect(ResourceLocator.folder("Models", variable: "SWINGMASTER_MODELS", environment: env)?.standardizedFileURL.path == far.path)
        #expect(ResourceLocator.folder("Models", variable: "SWINGMASTER_MODELS", environment: ["SWINGMASTER_MODELS": "/nowhere"])?.path
                == "/nowhere", "a folder that fails is still named, so the error can say which")
    }
}
