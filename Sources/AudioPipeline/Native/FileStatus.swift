#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// What is at a path, from one `stat(2)`: the checks that tell a missing file or a folder apart
/// from a file before anything opens it.
public enum FileStatus: Sendable, Equatable {
    /// Nothing there, or nothing this process may see.
    case missing
    /// A folder.
    case directory
    /// Anything else, with its size.
    case file(bytes: Int)

    /// What is at `path` now.
    public init(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { self = .missing; return }
        self = status.st_mode & S_IFMT == S_IFDIR ? .directory : .file(bytes: Int(status.st_size))
    }

    /// The size of the recording at `path`, or the one-line error that says why there is none:
    /// the check `encode` and `inspect` make before reading a recording.
    public static func recording(at path: String) throws -> Int {
        switch FileStatus(path: path) {
        case .missing: throw AudioPipelineError(.io, "no such file", source: path)
        case .directory: throw AudioPipelineError(.io, "is a directory, not an audio file", source: path)
        case .file(let bytes): return bytes
        }
    }
}

/// The first bytes of a file, which tell its format, read without reading the rest.
public enum FilePrefix {
    /// Up to `count` bytes from the start of the file at `path`; nil when it cannot be opened or read.
    public static func bytes(atPath path: String, count: Int) -> [UInt8]? {
        guard let file = try? FileDescriptor.open(path, .readOnly) else { return nil }
        defer { try? file.close() }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { try? file.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
            guard let got else { return nil }
            if got == 0 { break }
            filled += got
        }
        return Array(bytes.prefix(filled))
    }
}
