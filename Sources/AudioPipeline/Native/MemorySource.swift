import CSndfile
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The bytes and read position behind libsndfile's virtual I/O callbacks.
final class MemorySource {
    let bytes: [UInt8]
    var position: sf_count_t = 0

    init(data: Data) { bytes = [UInt8](data) }

    static func from(_ user: UnsafeMutableRawPointer?) -> MemorySource {
        Unmanaged<MemorySource>.fromOpaque(user!).takeUnretainedValue()
    }

    var length: sf_count_t { sf_count_t(bytes.count) }

    func seek(_ offset: sf_count_t, whence: Int32) -> sf_count_t {
        let base: sf_count_t
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END: base = length
        default: return -1
        }
        let (target, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, target >= 0 else { return -1 }
        position = target
        return position
    }

    func read(into buffer: UnsafeMutableRawPointer?, count: sf_count_t) -> sf_count_t {
        guard let buffer, count > 0, position < length else { return 0 }
        let available = min(count, length - position)
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: source.baseAddress! + Int(position), byteCount: Int(available))
        }
        position += available
        return available
    }
}

