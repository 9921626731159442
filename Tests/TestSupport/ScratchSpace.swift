import Foundation

/// Temporary folders for one test process, removed by nobody but the OS: each test gets a
/// fresh one under a folder named for the suite and the process.
public enum ScratchSpace {
    /// `voicemsg-NAME-PID` in the temporary directory, created.
    public static func folder(_ name: String) -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("voicemsg-\(name)-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A fresh, empty folder inside `parent`.
    public static func fresh(in parent: URL) throws -> URL {
        let url = parent.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
