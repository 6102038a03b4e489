import Foundation

/// Everything `swingmaster serve` can be told: where to listen, how much to accept, where files live.
public struct ServerConfiguration: Sendable {
    /// Address to bind; anything but loopback requires a ``token``.
    public var host = "127.0.0.1"
    public var port = 8080
    /// Analyses run at once in this process (one analysis already uses every core); 0 leaves them to
    /// `swingmaster worker` processes sharing the store.
    public var workers = 1
    /// Seconds a worker holds a job without a heartbeat before another may take it.
    public var leaseSeconds = 30.0
    /// Largest upload accepted, bytes.
    public var maxUploadBytes: Int64 = 2048 << 20
    /// Uploads streamed at once; more get 429.
    public var maxConcurrentUploads = 4
    /// Seconds without a byte before a stalled upload is dropped and its partial file removed.
    public var uploadIdleTimeout: Double = 60
    /// Bearer token (or `swingmaster_token` cookie) every page and API call must carry; `nil` = none.
    public var token: String?
    /// The Swingmaster home (database, media); `nil` = `SwingmasterHome.url()`.
    public var home: URL?
    /// The store's address as `--database` takes it (`sqlite:PATH`, `postgres://user@host[:port]/database`);
    /// `nil` = `HOME/swingmaster.sqlite`.
    public var database: String?
    /// Where uploads are kept; `nil` = `HOME/media`. Workers on other machines read them from there, so
    /// with several machines it is a shared folder mounted at the same path on each.
    public var media: URL?
    /// Templates and static files (`Web/`); `nil` = found next to the checkout.
    public var webRoot: URL?
    /// Third-party browser libraries installed by `make setup`; `nil` = `.deps/web/vendor` next to the checkout.
    public var vendorRoot: URL?

    /// PEM certificate (chain) and private key to serve HTTPS with; both or neither. Browsers give a page
    /// the camera only on a secure origin, so a phone needs this to use the studio's camera.
    public var tlsCertificate: String?
    public var tlsKey: String?

    public init() {}
}
