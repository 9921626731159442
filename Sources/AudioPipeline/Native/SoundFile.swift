import CSndfile
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Owns one libsndfile handle: opened for reading, from a path or from bytes in memory, or for
/// writing a file.
///
/// This is the only place that touches `SNDFILE*`. In-memory input goes through libsndfile's
/// virtual I/O, so upload bytes never need a temporary file. `deinit` closes the handle; a
/// writer that must know whether the last bytes reached the disk calls `close()` first.
final class SoundFile {
    private var handle: OpaquePointer?
    private let memory: MemorySource?
    let info: SF_INFO

    /// Opens a file for reading with `sf_open`.
    init(path: String) throws {
        var info = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
            throw Self.openError(header: Self.prefix(ofFileAt: path))
        }
        self.handle = handle
        self.memory = nil
        self.info = info
    }

    /// Opens bytes in memory for reading with `sf_open_virtual`.
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
            throw Self.openError(header: Array(data.prefix(4096)))
        }
        self.handle = handle
        self.memory = memory
        self.info = info
    }

    /// The formats voicemsg writes.
    enum WriteFormat {
        /// WAV, 16-bit PCM.
        case wav16

        var sndfileFormat: Int32 {
            switch self {
            case .wav16: return Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
            }
        }
    }

    /// Creates `path` for writing with `sf_open`. Float samples written to an integer format
    /// are clipped, not wrapped.
    init(writingTo path: String, format: WriteFormat, sampleRate: Int, channelCount: Int) throws {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channelCount)
        info.format = format.sndfileFormat
        guard let handle = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw Self.failure(nil, "sf_open", "cannot write the file", as: .io)
        }
        vm_sf_set_clipping(handle, 1)
        self.handle = handle
        self.memory = nil
        self.info = info
    }

    deinit {
        if let handle { sf_close(handle) }
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
        guard let handle else { return "" }
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
        guard let handle else { return 0 }
        let count = sf_readf_float(handle, buffer, sf_count_t(frames))
        if count <= 0 {
            if sf_error(handle) != 0 { throw Self.failure(handle, "sf_readf_float", "cannot decode the audio", as: .unreadableInput) }
            return 0
        }
        return Int(count)
    }

    /// Writes interleaved frames with `sf_writef_float`.
    func write(_ samples: UnsafeBufferPointer<Float>) throws {
        guard let handle, let base = samples.baseAddress else { return }
        let frames = samples.count / Int(info.channels)
        let written = sf_writef_float(handle, base, sf_count_t(frames))
        guard written == frames else {
            throw Self.failure(handle, "sf_writef_float", "cannot write the samples", as: .io)
        }
    }

    /// Closes the file with `sf_close`, which writes what is still buffered and the header's
    /// final sizes; throws when that fails.
    func close() throws {
        guard let handle else { return }
        self.handle = nil
        try check(sf_close(handle), .libsndfile, "sf_close", "cannot finish the file", as: .io)
    }

    private static func openError(header: [UInt8]) -> AudioPipelineError {
        if let problem = WAVHeader(header)?.problem {
            return AudioPipelineError(.unsupportedInput, problem)
        }
        return failure(nil, "sf_open", "not an audio file libsndfile can read", as: .unreadableInput)
    }

    /// The failure libsndfile reports for `handle`, or for the last open when it is nil, in
    /// `sf_strerror`'s words, which name the system's reason for a system error.
    private static func failure(
        _ handle: OpaquePointer?, _ function: String, _ action: String, as kind: AudioPipelineError.Code
    ) -> AudioPipelineError {
        NativeLibrary.libsndfile.failure(
            Int(sf_error(handle)), function, action, as: kind, reason: String(cString: sf_strerror(handle)))
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
