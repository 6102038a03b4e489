import ArgumentParser
import Foundation
import SwingCore
import Hummingbird
import Logging
import SwingPipeline
import SwingServer

/// `swingmaster serve` — the web app: upload a session, watch it being analysed, step through the shots.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the web app: upload videos, watch the analysis live, browse sessions and shots.",
        discussion: """
        Open the printed address in a browser (a phone on the same network works too with --host 0.0.0.0 \
        and a --token). Sessions are the same as the CLI's ($SWINGMASTER_HOME). Ctrl-C stops the server; \
        an analysis that was running is queued again for the next start. The model studio is at /detect \
        and the catalog at /models. A phone's browser gives the studio its camera only over HTTPS: serve with \
        --tls-cert and --tls-key (a self-signed pair: openssl req -x509 -newkey rsa:2048 -nodes -days 365 \
        -subj /CN=swingmaster -keyout key.pem -out cert.pem).
        """
    )

    @Option(help: "Address to listen on. Anything but 127.0.0.1 needs --token.") var host = "127.0.0.1"
    @Option(help: "Port (0 = any free port).") var port = 8080
    @Option(help: "Analyses run at once in this process (one analysis already uses every core); 0 leaves them to `swingmaster worker` processes.")
    var workers = 1
    @Option(name: .customLong("database"),
            help: "sqlite:PATH or postgres://user@host[:port]/database (default: $SWINGMASTER_DATABASE, else the home's swingmaster.sqlite).")
    var database: String?
    @Option(help: "Where uploads are kept (default: the home's media folder); workers on other machines need it at the same path.")
    var media: String?
    @Option(name: .customLong("lease-seconds"), help: "Seconds a job is held without a heartbeat before another worker may take it.")
    var leaseSeconds = 30.0
    @Option(name: .customLong("max-upload-mb"), help: "Largest upload accepted, MB.") var maxUploadMB = 2048
    @Option(name: .customLong("max-concurrent-uploads"), help: "Uploads accepted at once (more get HTTP 429).")
    var maxConcurrentUploads = 4
    @Option(help: "Token every page and API call must carry (default: $SWINGMASTER_TOKEN).") var token: String?
    @Option(name: .customLong("web-root"), help: "The Web folder with templates and static files (default: found next to the checkout).")
    var webRoot: String?
    @Option(name: .customLong("tls-cert"), help: "Serve HTTPS with this PEM certificate (with --tls-key).") var tlsCert: String?
    @Option(name: .customLong("tls-key"), help: "The PEM private key of --tls-cert.") var tlsKey: String?

    func validate() throws {
        try OptionCheck.integer(port, "--port", 0...65_535)
        try OptionCheck.integer(workers, "--workers", 0...OptionCheck.maxThreads)
        _ = try StoreOptions.parse(database)
        guard leaseSeconds.isFinite, leaseSeconds >= 1, leaseSeconds <= 3600 else {
            throw ValidationError("--lease-seconds must be between 1 and 3600.")
        }
        try OptionCheck.integer(maxUploadMB, "--max-upload-mb", 1...1_048_576)
        try OptionCheck.integer(maxConcurrentUploads, "--max-concurrent-uploads", 1...1_000)
    }

    func run() async throws {
        var config = ServerConfiguration()
        config.host = host
        config.port = port
        config.workers = workers
        config.leaseSeconds = leaseSeconds
        // Checked here, so a wrong address is refused before anything starts.
        config.database = try DatabaseAddress(database).text
        config.media = media.map { URL(fileURLWithPath: $0, isDirectory: true) }
        config.maxUploadBytes = Int64(maxUploadMB) << 20
        config.maxConcurrentUploads = maxConcurrentUploads
        let env = ProcessEnvironment.current["SWINGMASTER_TOKEN"]
        config.token = token ?? (env?.isEmpty == false ? env : nil)
        config.webRoot = webRoot.map { URL(fileURLWithPath: $0, isDirectory: true) }
        config.tlsCertificate = tlsCert
        config.tlsKey = tlsKey
        var logger = Logger(label: "swingmaster")
        logger.logLevel = .info
        let app = try await buildApplication(configuration: config, logger: logger)
        let scheme = tlsCert == nil ? "http" : "https"
        Console.err("Swingmaster is running at \(scheme)://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(port)/ — Ctrl-C to stop\n")
        try await app.runService()
    }
}
