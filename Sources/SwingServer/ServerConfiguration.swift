import Foundation

/// Everything `swingmaster serve` can be told: where to listen, how much to accept, where files live.
package struct ServerConfiguration: Sendable {
    /// Address to bind; anything but loopback requires a ``token``.
    package var host = "127.0.0.1"
    package var port = 8080
    /// Analyses run at once in this process (one analysis already uses every core); 0 leaves them to
    /// `swingmaster worker` processes sharing the store.
    package var workers = 1
    /// Seconds a worker holds a job without a heartbeat before another may take it.
    package var leaseSeconds = 30.0
    /// Largest upload accepted, bytes.
    package var maxUploadBytes: Int64 = 2048 << 20
    /// Uploads streamed at once; more get 429.
    package var maxConcurrentUploads = 4
    /// Seconds without a byte before a stalled upload is dropped and its partial file removed.
    package var uploadIdleTimeout: Double = 60
    /// Bearer token (or `swingmaster_token` cookie) every page and API call must carry; `nil` = none.
    package var token: String?
    /// The Swingmaster home (database, media); `nil` = `SwingmasterHome.url()`.
    package var home: URL?
    /// The store's address as `--database` takes it (`sqlite:PATH`, `postgres://user@host[:port]/database`);
    /// `nil` = `HOME/swingmaster.sqlite`.
    package var database: String?
    /// Where uploads are kept; `nil` = `HOME/media`. Workers on other machines read them from there, so
    /// with several machines it is a shared folder mounted at the same path on each.
    package var media: URL?
    /// Templates and static files (`Web/`); `nil` = found next to the checkout.
    package var webRoot: URL?
    /// Third-party browser libraries installed by `make setup`; `nil` = `.deps/web/vendor` next to the checkout.
    package var vendorRoot: URL?

    /// PEM certificate (chain) and private key to serve HTTPS with; both or neither. Browsers give a page
    /// the camera only on a secure origin, so a phone needs this to use the studio's camera.
    package var tlsCertificate: String?
    package var tlsKey: String?

    package init() {}
}
