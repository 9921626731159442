#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SystemPackage
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The descriptor the child reads its input from: the file itself, or upload bytes in memory
/// that is not a file on disk. Either way the child can seek (an MP4 with its `moov` at the end
/// needs that) and never sees a path. Close-on-exec from the start, so that no other child of
/// this process gets it.
final class DecoderInput {
    let fd: FileDescriptor

    init(_ input: AudioInput) throws {
        switch input {
        case .file(let path):
            do {
                fd = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
            } catch let failure as Errno {
                throw AudioPipelineError(.io, "cannot open (\(failure))")
            }
        case .data(let data, _):
            fd = try Self.anonymousFile(holding: data)
        }
    }

    deinit { try? fd.close() }

    /// POSIX shared memory on Linux (tmpfs, never on disk; shm_open sets close-on-exec),
    /// unlinked at once so that only the descriptor names it; an unlinked temporary file
    /// elsewhere (macOS shared memory cannot be written with write(2)).
    private static func anonymousFile(holding data: Data) throws -> FileDescriptor {
        func failed(_ cause: Errno) -> AudioPipelineError {
            AudioPipelineError(.io, "cannot hold the upload for the decoder (\(cause))")
        }
        #if os(Linux)
        let name = "/voicemsg-decode-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let raw = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0o600)
        guard raw >= 0 else { throw failed(Errno(rawValue: errno)) }
        shm_unlink(name)
        #else
        var template = Array((NSTemporaryDirectory() + "/voicemsg-decode-XXXXXX").utf8CString)
        let raw = mkostemp(&template, O_CLOEXEC)
        guard raw >= 0 else { throw failed(Errno(rawValue: errno)) }
        unlink(String(cString: template))
        #endif
        let fd = FileDescriptor(rawValue: raw)
        do {
            _ = try data.withUnsafeBytes { try fd.writeAll($0) }
            try fd.seek(offset: 0, from: .start)
        } catch let failure as Errno {
            try? fd.close()
            throw failed(failure)
        }
        return fd
    }
}
