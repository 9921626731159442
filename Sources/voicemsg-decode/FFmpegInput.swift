#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import CFFmpeg

/// libavformat's I/O over an already open file descriptor. The parent opens the file (or puts
/// upload bytes in anonymous memory) and hands over the descriptor, so FFmpeg never sees a path
/// or a URL and none of its protocols can be reached.
final class FFmpegInput {
    let context: UnsafeMutablePointer<AVIOContext>
    private let fd: Int32

    init(fd: Int32) throws {
        self.fd = fd
        let size: Int32 = 64 * 1024
        guard let buffer = av_malloc(Int(size))?.assumingMemoryBound(to: UInt8.self) else {
            throw DecodeFailure.unreadable("out of memory")
        }
        let seekable = lseek(fd, 0, SEEK_CUR) >= 0
        let descriptor = UnsafeMutableRawPointer(bitPattern: Int(fd) + 1)
        guard let context = avio_alloc_context(
            buffer, size, 0, descriptor,
            { opaque, buffer, size in
                let fd = Int32(Int(bitPattern: opaque) - 1)
                while true {
                    let count = read(fd, buffer, Int(size))
                    if count > 0 { return Int32(count) }
                    if count == 0 { return vm_averror_eof() }
                    if errno != EINTR { return -errno }
                }
            },
            nil,
            seekable
                ? { opaque, offset, whence in
                    let fd = Int32(Int(bitPattern: opaque) - 1)
                    // The size from seeks, not fstat: the system-call filter allows lseek on
                    // the input, and no stat at all.
                    if whence & AVSEEK_SIZE != 0 {
                        let position = lseek(fd, 0, SEEK_CUR)
                        let size = lseek(fd, 0, SEEK_END)
                        guard position >= 0, size >= 0, lseek(fd, position, SEEK_SET) == position else { return -1 }
                        return Int64(size)
                    }
                    return Int64(lseek(fd, off_t(offset), whence & ~AVSEEK_FORCE))
                }
                : nil
        ) else {
            av_free(buffer)
            throw DecodeFailure.unreadable("out of memory")
        }
        self.context = context
    }

    deinit {
        var context: UnsafeMutablePointer<AVIOContext>? = self.context
        av_freep(&context!.pointee.buffer)
        avio_context_free(&context)
    }
}
