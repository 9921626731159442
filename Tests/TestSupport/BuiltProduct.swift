import Foundation

/// The executables this package builds (voicemsg, voicemsg-server, voicemsg-decode and the
/// tests' fault stand-ins), found beside the test bundle or in .build/debug.
public enum BuiltProduct {
    public static func path(_ name: String) throws -> String {
        var candidates: [URL] = []
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug"))
        for directory in candidates {
            let path = directory.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw ToolFailure(description: "\(name) executable not found; build it (swift build --build-tests)")
    }
}
