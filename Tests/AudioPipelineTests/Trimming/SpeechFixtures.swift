import Foundation
import TestSupport

/// Speech made with espeak-ng, resampled to 48 kHz and high-passed at 75 Hz with sox, once per
/// test run, through a temporary folder, and cached in memory. Nothing outside the project is
/// read.
enum SpeechFixtures {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let halfway = "You're halfway there, keep going!"
    static let proud = "We are so proud of you. Only five kilometres to go."
    /// Starts and ends on a fricative, the weakest edges speech has.
    static let fricatives = "Seriously fast, Sam! Finish strong, champs"
    /// Shorter than one 400 ms loudness block.
    static let short = "Go!"
    static let first = "Keep going."
    static let second = "You are doing great."

    /// Mono Float samples at 48 kHz for `text`.
    static func speech(_ text: String) throws -> [Float] {
        try cache.withLock { cache in
            if let cached = cache[text] { return cached }
            let made = try synthesize(text)
            cache[text] = made
            return made
        }
    }

    private static let cache = Locked<[String: [Float]]>([:])

    private static let folder: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("voicemsg-trim-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    private static func synthesize(_ text: String) throws -> [Float] {
        let name = String(text.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
        let wav = folder.appendingPathComponent("\(name).wav").path
        let raw = folder.appendingPathComponent("\(name).f32").path
        try run("espeak-ng", ["-w", wav, text])
        try run("sox", [wav, "-t", "raw", "-e", "floating-point", "-b", "32", "-c", "1", "-L", raw,
                        "rate", "-v", "48000", "highpass", "75"])
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        // The samples are cached in memory for the rest of the run; leave no files behind.
        try? FileManager.default.removeItem(atPath: wav)
        try? FileManager.default.removeItem(atPath: raw)
        return data.withUnsafeBytes { bytes in
            (0..<(data.count / 4)).map { index in
                Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)))
            }
        }
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        try Tool.run(tool, arguments)
    }
}
