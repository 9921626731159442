import CFFmpeg

/// libavformat's output into memory, seekable, so the MP4 muxer can go back and write the sizes
/// and tables it learns only at the end, as it does in a file. The child writes no file (its
/// `RLIMIT_FSIZE` is 0 and its system-call filter has no `open`), and a pipe cannot seek: the
/// file is made here and sent to the parent whole.
final class MemoryOutput {
    let context: UnsafeMutablePointer<AVIOContext>
    private let file: File

    /// The bytes written and where the next write goes; at most `limit` bytes.
    final class File {
        var bytes: [UInt8] = []
        var position = 0
        let limit: Int

        init(limit: Int) {
            self.limit = limit
        }

        func write(_ buffer: UnsafePointer<UInt8>, count: Int) -> Int32 {
            guard count >= 0, position + count <= limit else { return vm_averror_enomem() }
            if position + count > bytes.count {
                bytes.append(contentsOf: repeatElement(0, count: position + count - bytes.count))
            }
            bytes.withUnsafeMutableBufferPointer { target in
                (target.baseAddress! + position).update(from: buffer, count: count)
            }
            position += count
            return Int32(count)
        }

        func seek(_ offset: Int64, whence: Int32) -> Int64 {
            if whence & AVSEEK_SIZE != 0 { return Int64(bytes.count) }
            let base: Int
            switch whence & ~AVSEEK_FORCE {
            case SEEK_SET: base = 0
            case SEEK_CUR: base = position
            case SEEK_END: base = bytes.count
            default: return -1
            }
            let target = Int64(base) + offset
            guard target >= 0, target <= Int64(limit) else { return -1 }
            position = Int(target)
            return target
        }
    }

    /// Holds at most `limit` bytes; a muxer that writes more gets ENOMEM.
    init(limit: Int) throws {
        file = File(limit: limit)
        let size: Int32 = 64 * 1024
        guard let buffer = av_malloc(Int(size))?.assumingMemoryBound(to: UInt8.self) else {
            throw DecodeFailure.unreadable("out of memory")
        }
        guard let context = avio_alloc_context(
            buffer, size, 1, Unmanaged.passUnretained(file).toOpaque(), nil,
            { opaque, buffer, size in
                guard let opaque, let buffer else { return vm_averror_enomem() }
                return Unmanaged<File>.fromOpaque(opaque).takeUnretainedValue().write(buffer, count: Int(size))
            },
            { opaque, offset, whence in
                guard let opaque else { return -1 }
                return Unmanaged<File>.fromOpaque(opaque).takeUnretainedValue().seek(offset, whence: whence)
            }
        ) else {
            av_free(buffer)
            throw DecodeFailure.unreadable("out of memory")
        }
        self.context = context
    }

    /// Everything written, once the muxer has flushed.
    var bytes: [UInt8] {
        avio_flush(context)
        return file.bytes
    }

    deinit {
        var context: UnsafeMutablePointer<AVIOContext>? = self.context
        av_freep(&context!.pointee.buffer)
        avio_context_free(&context)
        withExtendedLifetime(file) {}
    }
}
