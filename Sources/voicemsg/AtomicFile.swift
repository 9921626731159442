import AudioPipeline
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes a file so that it either appears whole or not at all: the bytes go to a temporary
/// file in the same folder, which is then renamed over the destination.
enum AtomicFile {
    static func write(_ bytes: [UInt8], to path: String) throws {
        try write(to: path) { temporary in
            guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
                throw AudioPipelineError(.io, "cannot write: \(String(cString: strerror(errno)))", source: path)
            }
        }
    }

    /// Lets `body` write a temporary file in the destination's folder, then renames it over
    /// `path`. A temporary file that `body` leaves behind after throwing is removed.
    static func write(to path: String, _ body: (_ temporary: String) throws -> Void) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        switch FileStatus(path: folder) {
        case .missing: throw AudioPipelineError(.io, "cannot write: folder \(folder) does not exist", source: path)
        case .file: throw AudioPipelineError(.io, "cannot write: \(folder) is a file, not a folder", source: path)
        case .directory: break
        }
        let temporary = folder + "/." + url.lastPathComponent + ".\(UUID().uuidString.prefix(8)).tmp"
        do {
            try body(temporary)
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw AudioPipelineError(.io, "cannot write: \(reason)", source: path)
        }
    }
}
