#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Whether a WAV or CAF file leaves the size of its audio chunk open, as writers that cannot
/// seek back do (`ffmpeg -f wav pipe:1`, a recorder streaming CAF): a RIFF `data` size of 0 or
/// 0xFFFFFFFF, a CAF `data` size of -1. The audio then runs to the end of the file, and a short
/// last packet is where it stops; with a size declared, the same short packet means the file was
/// cut. Only the chunk headers are walked, with pread on the input descriptor.
enum OpenEndedAudioChunk {
    static func check(fd: Int32) -> Bool {
        func read(_ count: Int, at offset: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
            return got == count ? bytes : nil
        }
        func text(_ bytes: [UInt8], _ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        guard let header = read(12, at: 0) else { return false }
        switch text(header, 0..<4) {
        case "RIFF" where text(header, 8..<12) == "WAVE":
            var offset = 12
            // A real file has a handful of chunks before its audio; a crafted one gets no further.
            for _ in 0..<64 {
                guard let chunk = read(8, at: offset) else { return false }
                let size = (4..<8).reversed().reduce(0) { $0 << 8 | Int(chunk[$1]) }
                if text(chunk, 0..<4) == "data" { return size == 0 || size == 0xFFFF_FFFF }
                offset += 8 + size + (size & 1)
            }
        case "caff":
            var offset = 8
            for _ in 0..<64 {
                guard let chunk = read(12, at: offset) else { return false }
                let size = (4..<12).reduce(UInt64(0)) { $0 << 8 | UInt64(chunk[$1]) }
                if text(chunk, 0..<4) == "data" { return size == UInt64.max }
                guard size < UInt64(Int32.max) else { return false }
                offset += 12 + Int(size)
            }
        default:
            break
        }
        return false
    }
}
