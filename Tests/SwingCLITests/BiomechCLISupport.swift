import Foundation

/// Runs the real `swingmaster` binary (`SWINGMASTER_BIN`, else `<package>/.build/debug/swingmaster`).
enum SwingmasterBinary {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static var path: String {
        if let p = ProcessInfo.processInfo.environment["SWINGMASTER_BIN"], !p.isEmpty { return p }
        return packageRoot.appendingPathComponent(".build/debug/swingmaster").path
    }

    struct Output { var status: Int32; var stdout: String; var stderr: String; var data: Data }

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Output {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Read both pipes before waiting so a large output cannot block the child.
        let errHandle = err.fileHandleForReading
        let box = ErrBox()
        let reader = Thread { box.data = errHandle.readDataToEndOfFile() }
        reader.start()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        while box.data == nil { usleep(1000) }
        return Output(status: p.terminationStatus, stdout: String(decoding: data, as: UTF8.self),
                      stderr: String(decoding: box.data ?? Data(), as: UTF8.self), data: data)
    }

    final class ErrBox: @unchecked Sendable { var data: Data? }

    static func tempDir(_ prefix: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
