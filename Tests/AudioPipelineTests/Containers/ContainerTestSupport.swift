import Foundation
import Testing
import TestSupport

/// Runs the reference tools (opusenc, opusdec, opusinfo, sox, ffmpeg, ffprobe) that judge the
/// container code, inside a temporary folder that is removed afterwards.
struct ToolBox {
    let folder: URL

    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
        var combined: String { standardOutput + standardError }
    }

    static func withTemporaryFolder<T>(_ body: (ToolBox) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("voicemsg-containers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(ToolBox(folder: folder))
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Runs `tool` with `arguments` in the folder, through the tests' one tool runner (which
    /// keeps output in files and kills a tool that hangs).
    @discardableResult
    func run(_ tool: String, _ arguments: [String], expectSuccess: Bool = true) throws -> Output {
        let result = try Tool.run(tool, arguments, check: false, directory: folder)
        let output = Output(status: result.status, standardOutput: result.text, standardError: result.standardError)
        if expectSuccess, output.status != 0 {
            Issue.record("\(tool) \(arguments.joined(separator: " ")) failed (\(output.status)): \(output.standardError)")
        }
        return output
    }

    func read(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    func write(_ bytes: [UInt8], to name: String) throws {
        try Data(bytes).write(to: folder.appendingPathComponent(name))
    }

    /// Decodes an Opus file with opusdec to 32-bit float samples at 48 kHz (no dither, so two
    /// decodes of the same packets are bit-identical).
    func opusdec(_ name: String) throws -> WAVSamples {
        let wav = "\(name).dec.wav"
        try run("opusdec", ["--quiet", "--force-wav", "--float", "--rate", "48000", name, wav])
        return try WAVSamples(parsing: read(wav))
    }

    /// The samples of a WAV file (float or 16-bit PCM), interleaved, read from its RIFF chunks
    /// without trusting any tool.
    struct WAVSamples {
        var channelCount: Int
        var bytesPerSample: Int
        var data: [UInt8]
        var frameCount: Int { data.count / (channelCount * bytesPerSample) }

        init(parsing bytes: [UInt8]) throws {
            func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
            func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
            try #require(bytes.count >= 12 && Array(bytes[0..<4]) == Array("RIFF".utf8))
            var offset = 12
            var channels = 0, bits = 0
            var data: [UInt8]?
            while offset + 8 <= bytes.count {
                let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
                let size = u32(offset + 4)
                let body = offset + 8
                if id == "fmt " { channels = u16(body + 2); bits = u16(body + 14) }
                // opusdec leaves the data size at 0 or 0xFFFFFFFF when it cannot seek; take the rest.
                if id == "data" { data = Array(bytes[body..<min(bytes.count, body + size)]); break }
                offset = body + size + (size & 1)
            }
            channelCount = channels
            bytesPerSample = bits / 8
            self.data = try #require(data)
            try #require(channelCount > 0 && bytesPerSample > 0)
        }
    }
}
