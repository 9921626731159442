import Foundation
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

extension FileHandle {
    /// The file opened for writing, close-on-exec. Foundation's `FileHandle(forWritingTo:)`
    /// leaves the flag off, and every process the server starts would inherit the descriptor
    /// (the decoder child is spawned with descriptors 0 to 2 only, whatever their flags; this is
    /// the server's own hygiene, for whatever else may start a process).
    static func closingOnExec(forWritingTo url: URL) throws -> FileHandle {
        try opening(url, O_WRONLY)
    }

    /// The file opened for reading, close-on-exec (see `closingOnExec(forWritingTo:)`).
    static func closingOnExec(forReadingFrom url: URL) throws -> FileHandle {
        try opening(url, O_RDONLY)
    }

    private static func opening(_ url: URL, _ mode: Int32) throws -> FileHandle {
        var fd: Int32
        repeat { fd = open(url.path, mode | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else {
            throw CocoaError(mode == O_RDONLY ? .fileReadUnknown : .fileWriteUnknown, userInfo: [
                NSFilePathErrorKey: url.path,
                NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO),
            ])
        }
        return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }
}
