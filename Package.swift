// swift-tools-version:6.1
import PackageDescription

/// Each C library is a system-library target found through pkg-config, with the Debian and
/// Homebrew packages that provide it.
func systemLibrary(_ name: String, pkgConfig: String, apt: String, brew: String) -> Target {
    .systemLibrary(
        name: name,
        pkgConfig: pkgConfig,
        providers: [.apt([apt]), .brew([brew])]
    )
}

/// The command line's two binaries are linked by lld with packed relative relocations (DT_RELR,
/// glibc 2.36 or later; Debian 12 has 2.36): a binary with the Swift runtime linked in carries
/// tens of thousands of relative relocations, which as 24-byte RELA entries the loader reads whole
/// at every start and which then stay resident, megabytes of a message's peak memory (see
/// docs/benchmarks.md); packed, they take kilobytes. The code and data are the same. Linux only:
/// Mach-O has its own format.
let packedRelocations: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"], .when(platforms: [.linux])),
]

let package = Package(
    name: "voicemsg",
    // RunTracking is what the iOS and watchOS app links; every other target needs the C
    // libraries below and builds on macOS and Linux only.
    platforms: [.macOS(.v14), .iOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "RunTracking", targets: ["RunTracking"]),
        .library(name: "GPXReplay", targets: ["GPXReplay"]),
        .library(name: "AudioPipeline", targets: ["AudioPipeline"]),
        .executable(name: "voicemsg", targets: ["voicemsg"]),
        .executable(name: "voicemsg-server", targets: ["voicemsg-server"]),
        .executable(name: "voicemsg-decode", targets: ["voicemsg-decode"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        // HTTPS for `voicemsg serve --tls-cert/--tls-key`; voicemsg-server only, never the CLI.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // FileDescriptor and Errno for the decoder child's descriptors in AudioPipeline.
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // `swift package generate-documentation --target RunTracking`: the DocC catalogue an
        // app developer reads. A plugin only; nothing of it is linked.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The retention sweeper's timer.
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
        // The tests' long-running child processes (servers, workers), started, signalled and reaped.
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
    ],
    targets: [
        systemLibrary("CSndfile", pkgConfig: "sndfile", apt: "libsndfile1-dev", brew: "libsndfile"),
        systemLibrary("COpus", pkgConfig: "opus", apt: "libopus-dev", brew: "opus"),
        systemLibrary("CSoxr", pkgConfig: "soxr", apt: "libsoxr-dev", brew: "libsoxr"),
        systemLibrary("CEbur128", pkgConfig: "libebur128", apt: "libebur128-dev", brew: "libebur128"),
        systemLibrary("CExpat", pkgConfig: "expat", apt: "libexpat1-dev", brew: "expat"),
        // FFmpeg's libavformat and libavcodec (libavformat's pkg-config brings the other two).
        // Only voicemsg-decode may depend on it: see that target.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavcodec-extra"]), .brew(["ffmpeg"])]
        ),
        // libseccomp, the decoder child's system-call allow-list, and prctl's parent-death
        // signal: Linux only.
        .systemLibrary(name: "CSeccomp", pkgConfig: "libseccomp", providers: [.apt(["libseccomp-dev"])]),
        // posix_spawn's close-from file action, which Swift's Glibc module leaves out: no library.
        .systemLibrary(name: "CSpawn"),
        // The records voicemsg-decode writes and AudioPipeline reads: pure Swift, no Foundation.
        .target(name: "DecoderWire", dependencies: []),
        // The walls the decoder child puts up around itself: resource limits, death with its
        // parent, and (Linux) the system-call allow-list. A module of its own so that the tests'
        // FaultyDecoder stands behind exactly the same walls as voicemsg-decode.
        .target(
            name: "DecoderSandbox",
            dependencies: ["DecoderWire", .target(name: "CSeccomp", condition: .when(platforms: [.linux]))]
        ),
        // FFmpeg's demuxers and decoders in a process of their own, for the recordings libsndfile
        // cannot read and for every upload the server takes: a crafted file can crash it and
        // nothing else, and voicemsg never loads FFmpeg's libraries (what they cost to load:
        // docs/benchmarks.md, the decoder's floor).
        .executableTarget(
            name: "voicemsg-decode", dependencies: ["CFFmpeg", "DecoderWire", "DecoderSandbox"],
            linkerSettings: packedRelocations
        ),
        // GPS fixes to distance, markers, paces and the playback scheduler: pure Swift with no
        // dependency at all, so the phone app can link it alone. The same sources build as
        // Embedded Swift for the runner's page (scripts/build-wasm.sh, with Sources/RunTrackingWasm),
        // so they use no Foundation and declare the few C math functions they call (`Extern`).
        .target(
            name: "RunTracking",
            dependencies: [],
            swiftSettings: [.enableExperimentalFeature("Extern")]
        ),
        // GPX files read (through libexpat) and replayed through the tracker and scheduler.
        .target(name: "GPXReplay", dependencies: ["RunTracking", "CExpat"]),
        // Audio only: decode, condition, denoise, trim, normalize, encode, tag.
        .target(
            name: "AudioPipeline",
            dependencies: [
                "RunTracking", "DecoderWire", "CSndfile", "COpus", "CSoxr", "CEbur128",
                .target(name: "CSpawn", condition: .when(platforms: [.linux])),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The upload server, store, queue and workers; AudioPipeline stays free of server packages.
        .target(
            name: "VoicemsgServer",
            dependencies: [
                "AudioPipeline",
                "RunTracking",
                // The GPX reader, for a run's course.
                "GPXReplay",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // The pool's `ConnectionPoolError`, which postgres-nio throws as it is when the
                // pool has failed to connect for a while: an outage, to the store.
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // sqlite3_blob_write, to store an upload from its file in pieces.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]
        ),
        // The command line. It keeps to AudioPipeline, so `voicemsg encode` starts small;
        // `voicemsg serve` and `voicemsg worker` exec voicemsg-server.
        .executableTarget(
            name: "voicemsg",
            dependencies: [
                "AudioPipeline",
                "RunTracking",
                "GPXReplay",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            linkerSettings: packedRelocations
        ),
        .executableTarget(
            name: "voicemsg-server",
            dependencies: [
                "VoicemsgServer",
                "AudioPipeline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A worker whose processor returns the upload as its result, optionally after a delay or
        // by killing its own process for one sender: the faults the crash and poison tests need,
        // and the no-op jobs of the queue bench, kept out of the shipped binaries.
        .executableTarget(
            name: "FaultyWorker",
            dependencies: [
                "VoicemsgServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/FaultyWorker"
        ),
        // A stand-in for voicemsg-decode behind the same sandbox that, asked to by the upload,
        // tries what a taken-over decoder would (open a file, a socket, exec, outlive its
        // parent); other uploads it hands to the real voicemsg-decode. Built with the tests only.
        .executableTarget(
            name: "FaultyDecoder",
            dependencies: ["DecoderWire", "DecoderSandbox", .target(name: "CSeccomp", condition: .when(platforms: [.linux]))],
            path: "Tests/FaultyDecoder"
        ),
        // The process runners and scratch folders every test target uses.
        .target(
            name: "TestSupport",
            dependencies: [
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "RunTrackingTests",
            dependencies: [
                "RunTracking",
                "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // The GPX reader and RunSimulator, and RunTracking on real tracks: the tracker corpus
        // (Corpus/, runs drawn on the streets of samples/gpx and replayed through RunSimulator)
        // and the suites built on it or on the samples (real tracks, noise, saved state, stale
        // fixes, the wasm build against the native one). Those test the tracker, but they read
        // the tracks with GPXReader and replay them with RunSimulator, so they live beside
        // GPXReplay; RunTrackingTests keeps to suites that need RunTracking alone, as the
        // library does.
        .testTarget(name: "GPXReplayTests", dependencies: ["GPXReplay", "RunTracking", "TestSupport"]),
        .testTarget(
            name: "AudioPipelineTests",
            dependencies: [
                "AudioPipeline",
                "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "VoicemsgServerTests",
            dependencies: [
                "VoicemsgServer",
                // The command line's options, whose help is checked against the configuration.
                "voicemsg-server",
                "AudioPipeline",
                "RunTracking",
                "TestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // The migration tests read each backend's schema directly.
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "voicemsgTests", dependencies: ["voicemsg", "AudioPipeline", "RunTracking", "GPXReplay", "TestSupport"]),
    ]
)
