import Foundation
import SwingCore

/// Where the pages come from: `Web/templates` (Mustache), `Web/static` (our JS and CSS) and the vendor
/// folder `make setup` fills with third-party browser libraries.
struct WebLocations: Sendable {
    let root: URL
    let templates: URL
    let staticFiles: URL
    /// `nil` when `make setup` has not installed the browser libraries (pages then say so).
    let vendor: URL?

    init(_ configuration: ServerConfiguration) throws {
        guard let root = configuration.webRoot
                ?? ResourceLocator.folder("Web", variable: "SWINGMASTER_WEB",
                                          accept: { ResourceLocator.isDirectory($0.appendingPathComponent("templates")) }) else {
            throw ServerSetupError(.refused, "The web pages were not found: run from the Swingmaster checkout, or set SWINGMASTER_WEB (or --web-root) to its Web folder.")
        }
        self.root = root
        templates = root.appendingPathComponent("templates", isDirectory: true)
        staticFiles = root.appendingPathComponent("static", isDirectory: true)
        guard ResourceLocator.isDirectory(templates) else {
            throw ServerSetupError(.refused, "\(root.path) has no templates folder; --web-root must name the Web folder.")
        }
        vendor = configuration.vendorRoot ?? ResourceLocator.folder(".deps/web/vendor", variable: "SWINGMASTER_WEB_VENDOR")
    }
}
