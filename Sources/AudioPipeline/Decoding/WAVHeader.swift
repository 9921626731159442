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
