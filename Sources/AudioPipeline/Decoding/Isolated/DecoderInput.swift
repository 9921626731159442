import Foundation
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The descriptor the child reads its input from: the file itself, or upload bytes in memory
/// that is not a file on disk. Either way the child can seek (an MP4 with its `moov` at the end
/// needs that) and never sees a path.
final class DecoderInput {
    let fd: Int32

    init(_ input: AudioInput) throws {
        switch input {
        case .file(let path):
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw AudioPipelineError(.io, "cannot open (\(String(cString: strerror(errno))))") }
            self.fd = fd
        case .data(let data, _):
            fd = try Self.anonymousFile(holding: data)
        }
    }

    deinit { close(fd) }

    /// POSIX shared memory on Linux (tmpfs, never on disk), unlinked at once so that only the
    /// descriptor names it; an unlinked temporary file elsewhere (macOS shared memory cannot be
    /// written with write(2)).
    private static func anonymousFile(holding data: Data) throws -> Int32 {
        #if os(Linux)
        let name = "/voicemsg-decode-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw AudioPipelineError(.io, "cannot hold the upload for the decoder (\(String(cString: strerror(errno))))") }
        shm_unlink(name)
        #else
        var template = Array((NSTemporaryDirectory() + "/voicemsg-decode-XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw AudioPipelineError(.io, "cannot hold the upload for the decoder (\(String(cString: strerror(errno))))") }
        unlink(String(cString: template))
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        #endif
        var failure: Int32 = 0
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        guard failure == 0, lseek(fd, 0, SEEK_SET) == 0 else {
            close(fd)
            throw AudioPipelineError(.io, "cannot hold the upload for the decoder (\(String(cString: strerror(failure))))")
        }
        return fd
    }
}
