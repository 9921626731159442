import CSndfile
import Foundation

/// Owns one libsndfile handle opened for reading, from a path or from bytes in memory.
///
/// This is the only place that touches `SNDFILE*`. In-memory input goes through libsndfile's
/// virtual I/O, so upload bytes never need a temporary file.
final class SoundFile {
    private let handle: OpaquePointer
    private let memory: MemorySource?
    let info: SF_INFO

    /// Opens a file with `sf_open`.
    init(path: String) throws {
        var info = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
            throw Self.openError(nil, header: Self.prefix(ofFileAt: path))
        }
        self.handle = handle
        self.memory = nil
        self.info = info
    }

    /// Opens bytes in memory with `sf_open_virtual`.
    init(data: Data) throws {
        let memory = MemorySource(data: data)
        var info = SF_INFO()
        var io = SF_VIRTUAL_IO(
            get_filelen: { user in MemorySource.from(user).length },
            seek: { offset, whence, user in MemorySource.from(user).seek(offset, whence: whence) },
            read: { buffer, count, user in MemorySource.from(user).read(into: buffer, count: count) },
            write: { _, _, _ in 0 },
            tell: { user in MemorySource.from(user).position }
        )
        let user = Unmanaged.passUnretained(memory).toOpaque()
        guard let handle = sf_open_virtual(&io, Int32(SFM_READ), &info, user) else {
            throw Self.openError(nil, header: Array(data.prefix(4096)))
        }
        self.handle = handle
        self.memory = memory
        self.info = info
    }

    deinit {
        sf_close(handle)
        withExtendedLifetime(memory) {}
    }

    /// "WAV (Microsoft), Signed 16 bit PCM", from `SFC_GET_FORMAT_INFO`.
    var formatDescription: String {
        var info = self.info
        var major = SF_FORMAT_INFO()
        var subtype = SF_FORMAT_INFO()
        let majorName = vm_sf_get_format_major(&info, &major) == 0 ? major.name.map { String(cString: $0) } : nil
        let subtypeName = vm_sf_get_format_subtype(&info, &subtype) == 0 ? subtype.name.map { String(cString: $0) } : nil
        return [majorName, subtypeName].compactMap { $0 }.joined(separator: ", ")
    }

    /// libsndfile's log of the header it parsed, from `SFC_GET_LOG_INFO`.
    var headerLog: String {
        var buffer = [CChar](repeating: 0, count: 8192)
        let length = Int(vm_sf_get_log_info(handle, &buffer, Int32(buffer.count)))
        return String(decoding: buffer.prefix(max(0, min(length, buffer.count - 1))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The audio chunk's size as the header declares it and as the file holds it, when the
    /// header claims more than is there. libsndfile quietly reads what is present (its log says
    /// "data : 169614 (should be 84785)"), so a cut-off WAV, AIFF or CAF would otherwise pass
    /// as a shorter recording. 0xFFFFFFFF is not a claim: streaming writers such as ffmpeg put
    /// it there when they cannot seek back to fill in the size.
    var overstatedAudioChunk: (declared: Int64, present: Int64)? {
        for line in headerLog.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count == 6, ["data", "SSND"].contains(words[0]), words[1] == ":",
                  words[3] == "(should", words[4] == "be",
                  let declared = Int64(words[2]), let present = Int64(words[5].dropLast()),
                  declared > present, declared != 0xFFFF_FFFF else { continue }
            return (declared, present)
        }
        return nil
    }

    var isMPEG: Bool { (info.format & Int32(SF_FORMAT_TYPEMASK)) == Int32(SF_FORMAT_MPEG) }

    /// Reads up to `frames` interleaved frames into `buffer` with `sf_readf_float`.
    /// Returns the frames read; 0 at the end. A decoding error inside the stream throws.
    func readFrames(into buffer: UnsafeMutablePointer<Float>, frames: Int) throws -> Int {
        let count = sf_readf_float(handle, buffer, sf_count_t(frames))
        if count <= 0 {
            let code = sf_error(handle)
            if code != 0 {
                throw AudioPipelineError(.unreadableInput, "cannot decode the audio (\(String(cString: sf_strerror(handle))))")
            }
            return 0
        }
        return Int(count)
    }

    private static func openError(_ handle: OpaquePointer?, header: [UInt8]) -> AudioPipelineError {
        if let problem = WAVHeader(header)?.problem {
            return AudioPipelineError(.unsupportedInput, problem)
        }
        let reason = String(cString: sf_strerror(handle))
        return AudioPipelineError(.unreadableInput, "not an audio file libsndfile can read (\(reason))")
    }

    /// The first 4 KiB of a file, enough for any header worth explaining.
    private static func prefix(ofFileAt path: String) -> [UInt8] {
        guard let file = fopen(path, "rb") else { return [] }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = fread(&bytes, 1, bytes.count, file)
        return Array(bytes.prefix(count))
    }
}

/// The bytes and read position behind libsndfile's virtual I/O callbacks.
private final class MemorySource {
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

/// The `fmt ` chunk of a RIFF/WAVE header, read by hand when libsndfile refuses a file, so that
/// "the header declares a sample rate of 3000000000 Hz" can replace libsndfile's "SF_INFO
/// struct incomplete".
struct WAVHeader {
    var channels: Int
    var sampleRate: Int

    init?(_ bytes: [UInt8]) {
        func text(_ at: Int) -> String? {
            at + 4 <= bytes.count ? String(decoding: bytes[at..<(at + 4)], as: UTF8.self) : nil
        }
        func integer(_ at: Int, _ size: Int) -> Int? {
            guard at + size <= bytes.count else { return nil }
            return (0..<size).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
        }
        guard text(0) == "RIFF", text(8) == "WAVE" else { return nil }
        var offset = 12
        while let id = text(offset), let size = integer(offset + 4, 4) {
            if id == "fmt ", let channels = integer(offset + 10, 2), let rate = integer(offset + 12, 4) {
                self.channels = channels
                self.sampleRate = rate
                return
            }
            offset += 8 + size + (size & 1)
        }
        return nil
    }

    /// What makes the header unusable, in words; nil when channels and rate are plausible.
    var problem: String? {
        if channels == 0 { return "the header declares 0 channels" }
        let limits = InputLimits.default.sampleRates
        if !limits.contains(sampleRate) {
            return "the header declares a sample rate of \(sampleRate) Hz; \(limits.lowerBound)...\(limits.upperBound) Hz are accepted"
        }
        return nil
    }
}
