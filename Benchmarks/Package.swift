// swift-tools-version:6.1
import PackageDescription

// The hot paths of voicemsg, measured with ordo-one/benchmark, kept apart from the main package
// so that its dependencies (and the malloc interposer) never reach a user's build.
//
//     swift package benchmark                          run them all
//     swift package benchmark thresholds check --path Thresholds/6.3     compare with one compiler's counts
//     swift package --allow-writing-to-package-directory benchmark thresholds update --path Thresholds/6.3
// The counts are kept per compiler (major.minor), as swift-nio keeps its own;
// scripts/bench-hot-paths.sh picks the folder of the compiler it runs.
let package = Package(
    name: "voicemsg-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "voicemsg", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The synthetic run and speech every benchmark reads, made the same way each time, and
        // the tolerances of the threshold checks.
        .target(
            name: "BenchmarkFixtures",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "RunTracking", package: "voicemsg"),
            ]
        ),
        // GPS fixes through the DistanceTracker and the PlaybackScheduler.
        .executableTarget(
            name: "RunTrackingBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "RunTracking", package: "voicemsg"),
                "BenchmarkFixtures",
            ],
            path: "Benchmarks/RunTrackingBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // GPX files read through libexpat, and a marathon replayed end to end.
        .executableTarget(
            name: "GPXBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "RunTracking", package: "voicemsg"),
                .product(name: "GPXReplay", package: "voicemsg"),
                "BenchmarkFixtures",
            ],
            path: "Benchmarks/GPXBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // K-weighting and the loudness meter, and the true-peak limiter.
        .executableTarget(
            name: "AudioBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "AudioPipeline", package: "voicemsg"),
                "BenchmarkFixtures",
            ],
            path: "Benchmarks/AudioBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
