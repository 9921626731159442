#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// The priming and valid-frame counts of a CAF file's packet table ('pakt'). FFmpeg 5.1's CAF
/// demuxer reads the table's packet sizes but not these two counts, so AAC in CAF (Apple's
/// encoder primes 2112 frames) would start late by the priming and end with padding. Only the
/// chunk headers are walked, with pread on the input descriptor, before FFmpeg reads it.
struct CAFPacketTable {
    var primingFrames: Int
    var validFrames: Int

    init?(fd: Int32) {
        func read(_ count: Int, at offset: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
            return got == count ? bytes : nil
        }
        func integer(_ bytes: [UInt8], _ range: Range<Int>) -> Int {
            range.reduce(0) { $0 << 8 | Int(bytes[$1]) }
        }
        guard let header = read(8, at: 0), Array(header[0..<4]) == Array("caff".utf8) else { return nil }
        var offset = 8
        // A real file has a handful of chunks before its audio; a crafted one gets no further.
        for _ in 0..<64 {
            guard let chunk = read(12, at: offset) else { return nil }
            let type = String(decoding: chunk[0..<4], as: UTF8.self)
            let size = integer(chunk, 4..<12)
            if type == "pakt" {
                guard let table = read(24, at: offset + 12) else { return nil }
                let valid = integer(table, 8..<16)
                let priming = integer(table, 16..<20)
                guard valid > 0, priming >= 0, priming < 1 << 20 else { return nil }
                validFrames = valid
                primingFrames = priming
                return
            }
            guard type != "data", size >= 0, size < Int(Int32.max) else { return nil }
            offset += 12 + size
        }
        return nil
    }
}
