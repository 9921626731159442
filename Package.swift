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

let package = Package(
    name: "voicemsg",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "AudioPipeline", targets: ["AudioPipeline"]),
        .executable(name: "voicemsg", targets: ["voicemsg"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        systemLibrary("CSndfile", pkgConfig: "sndfile", apt: "libsndfile1-dev", brew: "libsndfile"),
        systemLibrary("COpus", pkgConfig: "opus", apt: "libopus-dev", brew: "opus"),
        systemLibrary("CSoxr", pkgConfig: "soxr", apt: "libsoxr-dev", brew: "libsoxr"),
        systemLibrary("CEbur128", pkgConfig: "libebur128", apt: "libebur128-dev", brew: "libebur128"),
        .target(
            name: "AudioPipeline",
            dependencies: ["CSndfile", "COpus", "CSoxr", "CEbur128"]
        ),
        .executableTarget(
            name: "voicemsg",
            dependencies: [
                "AudioPipeline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "AudioPipelineTests",
            dependencies: [
                "AudioPipeline",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "voicemsgTests", dependencies: ["AudioPipeline"]),
    ]
)
