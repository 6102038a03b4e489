import Foundation

/// Where Swingmaster keeps its state (the session database, uploads, installed models and partial
/// downloads): `$SWINGMASTER_HOME` when set and non-empty, else `~/.swingmaster`. The store, the model
/// catalog and the server all resolve it here, so they always agree.
package enum SwingmasterHome {
    /// The home folder for `environment`.
    package static func url(environment: [String: String] = ProcessEnvironment.current) -> URL {
        if let home = environment["SWINGMASTER_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home, isDirectory: true)
        }
        let user = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: user, isDirectory: true).appendingPathComponent(".swingmaster", isDirectory: true)
    }
}
