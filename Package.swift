// swift-tools-version:6.1
import PackageDescription

// Layers (lower never imports higher) — see README "Architecture":
//   SwingCore  <- SwingAudio, SwingBiomech (pure Swift)
//   CFFmpeg, CTurboJPEG <- SwingMedia (the only FFmpeg and libjpeg-turbo importer)
//   SwingInference (ONNX Runtime C API loaded at run time; the only ORT user)
//   SwingVision, SwingPose  <- SwingInference + SwingCore
//   SwingStore <- SwingBiomech (one Store protocol: GRDB/SQLite and postgres-nio/PostgreSQL; records hold the domain types)
//   SwingPipeline <- all engine modules + SwingStore;  SwingCLI <- engine + SwingPipeline + SwingServer (never the store);
//   swingmaster = thin @main
// `SWINGMASTER_SANITIZE=address` (set by `make test-asan`) builds this package's own modules with
// AddressSanitizer in the same build directory as `make test`, so only they are recompiled; the
// dependencies stay as built (FFmpeg and ONNX Runtime never were instrumented, and NIO, GRDB and
// BoringSSL are their authors' to sanitize). The runtime still intercepts every allocation, so an
// overrun by our code of any buffer, ours or a library's, is caught.
let sanitize = Context.environment["SWINGMASTER_SANITIZE"].flatMap { $0.isEmpty ? nil : $0 }
let sanitizeFlags: [SwiftSetting] = sanitize.map { [.unsafeFlags(["-sanitize=\($0)"])] } ?? []
let sanitizeLink: [LinkerSetting] = sanitize.map { [.unsafeFlags(["-sanitize=\($0)"])] } ?? []
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
] + sanitizeFlags
// Pixel, DSP and tensor loops are 10–50× slower unoptimised, which would make the test suite
// (real images, real audio, real models) crawl; these modules are optimised in debug builds too.
let hotSettings: [SwiftSetting] = swiftSettings + [
    .unsafeFlags(["-O"], .when(configuration: .debug)),
]

let package = Package(
    name: "Swingmaster",
    platforms: [.macOS(.v14)],
    // One product. The Swing* modules are this package's layers, not a library others can depend on: the
    // hot modules build with an unsafe flag, which SwiftPM refuses in a dependency pinned by version. The
    // supported interfaces are the CLI, the HTTP API and the session document (README, docs/).
    products: [
        .executable(name: "swingmaster", targets: ["swingmaster"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        // SHA-256 for uploads, sessions and model downloads: BoringSSL's (SHA-NI) on Linux, CryptoKit on macOS.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
        // The model studio's live camera socket (GET /api/detect/live) and its test client.
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.0.0"),
        // Model downloads streamed to disk with back-pressure (FoundationNetworking's URLSession buffers
        // whatever the server sends).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.20.0"),
        // GET /metrics: the server's counters and timers through swift-metrics, in Prometheus' text format.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.4.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
        // The shared store (`--database postgres://…`): sessions and the job queue for many machines.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.27.0"),
        // The job runner's logging and its graceful shutdown, in `serve` and `worker` alike (both already come
        // with Hummingbird; declared because the application layer uses them without the web stack).
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
    ],
    targets: [
        .target(name: "SwingCore", dependencies: [.product(name: "Crypto", package: "swift-crypto")], swiftSettings: hotSettings),
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [
                .apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswresample-dev", "libswscale-dev"]),
                .brew(["ffmpeg"]),
            ]
        ),
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"]), .brew(["jpeg-turbo"])]
        ),
        .target(name: "SwingMedia", dependencies: ["SwingCore", "CFFmpeg", "CTurboJPEG"], swiftSettings: hotSettings),
        .target(name: "SwingAudio", dependencies: ["SwingCore"], swiftSettings: hotSettings),
        .target(name: "SwingInference", dependencies: ["SwingCore"], swiftSettings: hotSettings),
        .target(
            name: "SwingVision",
            dependencies: ["SwingCore", "SwingInference", .product(name: "AsyncHTTPClient", package: "async-http-client")],
            swiftSettings: hotSettings
        ),
        .target(name: "SwingPose", dependencies: ["SwingCore", "SwingInference"], swiftSettings: hotSettings),
        .target(name: "SwingBiomech", dependencies: ["SwingCore"], swiftSettings: hotSettings),
        .target(
            name: "SwingStore",
            dependencies: ["SwingCore", "SwingBiomech", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "PostgresNIO", package: "postgres-nio"),
                           .product(name: "NIOSSL", package: "swift-nio-ssl")],
            swiftSettings: swiftSettings),
        .target(
            name: "SwingPipeline",
            dependencies: ["SwingCore", "SwingMedia", "SwingAudio", "SwingInference", "SwingPose", "SwingBiomech", "SwingVision",
                           "SwingStore", .product(name: "Logging", package: "swift-log"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
            swiftSettings: swiftSettings
        ),
        // The web app (`swingmaster serve`): a thin adapter over the pipeline and the store.
        .target(
            name: "SwingServer",
            dependencies: [
                "SwingCore", "SwingPipeline",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "SwingCLI",
            dependencies: [
                "SwingCore", "SwingMedia", "SwingAudio", "SwingInference", "SwingVision", "SwingPose",
                "SwingBiomech", "SwingPipeline", "SwingServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(name: "swingmaster", dependencies: ["SwingCLI"], swiftSettings: swiftSettings,
                         linkerSettings: sanitizeLink),
        // Test data the shipped modules never need: synthetic session audio with its truth, contact
        // scoring, the one seeded PRNG and WAV writer. Used by the tests and the benchmarks, not a product.
        .target(name: "SwingTestSupport", dependencies: ["SwingCore", "SwingBiomech", "SwingStore"], swiftSettings: hotSettings),
        // Benchmarks (`make bench`): our side of each comparison; peers are run by scripts/bench.sh.
        .executableTarget(
            name: "swingbench",
            dependencies: [
                "SwingCore", "SwingMedia", "SwingAudio", "SwingInference", "SwingVision", "SwingPose",
                "SwingBiomech", "SwingPipeline", "SwingStore", "SwingTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings,
            linkerSettings: sanitizeLink
        ),

        .testTarget(name: "SwingCoreTests", dependencies: ["SwingCore"], swiftSettings: swiftSettings, linkerSettings: sanitizeLink),
        // The audio and sweep suites compute their references sample by sample and pixel by pixel (moving
        // averages, local maxima, mean differences over 180 megapixels), so they are optimised like the
        // engine: unoptimised, under AddressSanitizer, they were most of `make test-asan`.
        .testTarget(name: "SwingAudioTests", dependencies: ["SwingAudio", "SwingCore", "SwingTestSupport"], swiftSettings: hotSettings, linkerSettings: sanitizeLink),
        // The accuracy sweeps over recorded and mixed sound and phone chains (Python makes the tracks and runs
        // the references): `make test` runs them; `make test-asan` does not (the DSP they drive is the one
        // SwingAudioTests runs instrumented).
        .testTarget(name: "SwingAudioSweepTests", dependencies: ["SwingAudio", "SwingCore", "SwingTestSupport"], swiftSettings: hotSettings, linkerSettings: sanitizeLink),
        .testTarget(name: "SwingMediaTests", dependencies: ["SwingTestSupport", "SwingMedia", "SwingCore"], swiftSettings: swiftSettings, linkerSettings: sanitizeLink),
        .testTarget(name: "SwingInferenceTests", dependencies: ["SwingInference", "SwingCore"], resources: [.copy("Fixtures")], swiftSettings: swiftSettings, linkerSettings: sanitizeLink),
        .testTarget(name: "SwingVisionTests", dependencies: ["SwingTestSupport", "SwingVision", "SwingMedia", "SwingCore", "SwingInference"], resources: [.copy("Fixtures")], swiftSettings: swiftSettings, linkerSettings: sanitizeLink),
        .testTarget(name: "SwingPoseTests", dependencies: ["SwingTestSupport", "SwingPose", "SwingMedia", "SwingCore"], resources: [.copy("Fixtures")], swiftSettings: swiftSettings, linkerSettings: sanitizeLink),
        .testTarget(name: "SwingSweepTests", dependencies: ["SwingTestSupport", "SwingMedia", "SwingVision", "SwingPose", "SwingCore"], swiftSettings: hotSettings, linkerSettings: sanitizeLink),
        .testTarget(name: "SwingServerTests", dependencies: ["SwingTestSupport", "SwingServer", "SwingStore", "SwingPipeline", "SwingMedia", "SwingVision", "SwingCore", "SwingBiomech", .product(name: "HummingbirdTesting", package: "hummingbird"), .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"), .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket")], swiftSettings: swiftSettings, linkerSettings: sanitizeLink),
        .testTarget(name: "SwingBiomechTests", dependencies: ["SwingBiomech", "SwingCore", "SwingTestSupport"], swiftSettings: swiftSettings, linkerSettings: sanitizeLink),
        .testTarget(name: "SwingStoreTests", dependencies: ["SwingStore", "SwingTestSupport", "SwingCore", "SwingBiomech", "SwingAudio", .product(name: "GRDB", package: "GRDB.swift")], swiftSettings: swiftSettings, linkerSettings: sanitizeLink),
        .testTarget(name: "SwingPipelineTests", dependencies: ["SwingTestSupport", "SwingPipeline", "SwingStore", "SwingMedia", "SwingPose", "SwingVision", "SwingInference", "SwingAudio", "SwingBiomech", "SwingCore"], swiftSettings: swiftSettings, linkerSettings: sanitizeLink),
        // Fixtures are read from the package directory by path (the CLI under test is a separate process).
        // The tiers `make test` runs apart (Makefile): the store suite over SQLite and a throw-away PostgreSQL
        // server, and the suites that run `serve`, `worker` and `migrate` processes against it.
        .testTarget(name: "SwingPostgresTests", dependencies: ["SwingStore", "SwingTestSupport", "SwingCore", "SwingBiomech"], swiftSettings: swiftSettings, linkerSettings: sanitizeLink),
        .testTarget(name: "SwingProcessTests", dependencies: ["SwingStore", "SwingTestSupport", "SwingCore"], swiftSettings: swiftSettings, linkerSettings: sanitizeLink),
        // Model downloads against a misbehaving local HTTP server, timed in seconds: run on their own.
        .testTarget(name: "SwingDownloadTests", dependencies: ["SwingVision", "SwingCore", "SwingTestSupport"], exclude: ["Fixtures"], swiftSettings: swiftSettings, linkerSettings: sanitizeLink),
        // The binary against hostile input, files cut short, and its own signals and exit codes: the CLI tier
        // `make test-asan` runs whole, with the AddressSanitizer build of the binary.
        .testTarget(name: "SwingBinaryTests", dependencies: ["SwingTestSupport", "SwingCore", "SwingStore"], swiftSettings: swiftSettings, linkerSettings: sanitizeLink),
        .testTarget(name: "SwingCLITests", dependencies: ["SwingCLI", "SwingCore", "SwingStore", "SwingTestSupport", "SwingBiomech", "SwingMedia", "SwingPipeline"], exclude: ["Fixtures"], swiftSettings: swiftSettings, linkerSettings: sanitizeLink),
    ]
)
