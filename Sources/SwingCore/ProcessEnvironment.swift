import Foundation

/// The environment variables Swingmaster reads (`SWINGMASTER_HOME`, `SWINGMASTER_MODELS`,
/// `SWINGMASTER_DATABASE`, …): the process's own, with ``overrides`` on top where a caller bound them.
///
/// Every default `environment:` argument in the package reads ``current``, so a command run inside the test
/// process (SwingCLITests' in-process runner) sees the home, store and models its test gave it, as a child
/// process would, while other tests run beside it with theirs. ``BlockingWork`` carries the overrides onto
/// its threads.
package enum ProcessEnvironment {
    /// Variables set on top of the process's environment for the current task (and the work it starts on
    /// ``BlockingWork`` threads); `nil`: the process's own.
    @TaskLocal package static var overrides: [String: String]?

    /// The process's environment with ``overrides`` on top.
    package static var current: [String: String] {
        let own = ProcessInfo.processInfo.environment
        guard let overrides else { return own }
        return own.merging(overrides) { $1 }
    }
}
