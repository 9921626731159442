import Foundation

/// A folder deleted when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String

    public init() throws {
        path = NSTemporaryDirectory() + "voicemsg-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
