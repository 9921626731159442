#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What is at a path, from `stat(2)`: the checks that tell a missing file or a folder apart
/// from a file before anything opens it.
public enum FileStatus: Sendable, Equatable {
    case missing
    case directory
    case file

    public init(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { self = .missing; return }
        self = status.st_mode & S_IFMT == S_IFDIR ? .directory : .file
    }

    /// The size in bytes of what is at `path`; nil when nothing is.
    public static func size(atPath path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int(status.st_size)
    }
}

/// The first bytes of a file, which tell its format, read without reading the rest.
public enum FilePrefix {
    /// Up to `count` bytes from the start of the file at `path`; nil when it cannot be opened.
    public static func bytes(atPath path: String, count: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, count - filled) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        return Array(bytes.prefix(filled))
    }
}
