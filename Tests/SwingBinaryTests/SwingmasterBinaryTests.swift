import Foundation
import SwingTestSupport
import Testing

/// The CLI suites run the binary of their own build (a debug run the debug binary, `test-asan` the
/// AddressSanitizer one), so a stale binary from another build can never pass for this one.
struct SwingmasterBinaryTests {
    @Test(.enabled(if: (ProcessInfo.processInfo.environment["SWINGMASTER_BIN"] ?? "").isEmpty,
                   "SWINGMASTER_BIN names the binary explicitly"))
    func theBinaryIsThisBuildsOwn() async throws {
        let tests = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        let binary = URL(fileURLWithPath: SwingmasterBinary.path).deletingLastPathComponent().path
        #expect(tests.hasPrefix(binary + "/"), "tests run from \(tests), binary in \(binary)")
        let version = try await SwingmasterBinary.run(["--version"])
        #expect(version.status == 0 && !version.stdout.isEmpty, "\(version.stderr)")
    }
}
