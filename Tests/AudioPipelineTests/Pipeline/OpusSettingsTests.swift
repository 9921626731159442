import Foundation
import Testing
import RunTracking
import TestSupport
@testable import AudioPipeline

/// The README's Opus settings (24 kb/s VBR, 20 ms, voice, complexity 10), asked of libopus and
/// read from the pipeline's own output by ffprobe and opusinfo.
@Suite struct OpusSettingsTests {
    /// libopus reads back what an encoder made from the pipeline's configuration is set to.
    @Test func libopusReportsTheDocumentedSettings() throws {
        let handle = try OpusEncoderHandle(configuration: PipelineConfiguration().encoder)
        #expect(try handle.setting(.bitrate) == 24_000)
        #expect(try handle.setting(.vbr) == 1)
        #expect(try handle.setting(.complexity) == 10)
        #expect(try handle.setting(.signal) == 3001, "OPUS_SIGNAL_VOICE")
        #expect(try handle.setting(.frameDuration) == 5004, "OPUS_FRAMESIZE_20_MS")
        #expect(try handle.setting(.application) == 2049, "OPUS_APPLICATION_AUDIO")
    }

    /// What a player receives: ffprobe sees one 20 ms frame in every packet, packets of many
    /// sizes (VBR), and nearly all of them in SILK or hybrid mode, which the voice tuning picks
    /// for speech at this rate (the TOC byte's configuration under 16; CELT-only is 16 to 31);
    /// opusinfo's average bitrate is near 24 kb/s.
    @Test func theOutputCarriesThem() throws {
        let input = try SpeechRecordings.make(seconds: 8, loudness: -20, sampleRate: 48_000, channels: 1,
                                              container: .wav, name: "opus-settings")
        defer { try? FileManager.default.removeItem(atPath: input.path) }
        let message = try MessagePipeline().process(.file(path: input.path), metadata: MessageMetadata(marker: try DistanceMarker(parsing: "5km")))
        let folder = try SpeechRecordings.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.opus").path
        try Data(OggOpusWriter.write(message.stream)).write(to: URL(fileURLWithPath: output))

        let probe = try Tool.run("ffprobe", ["-v", "error", "-select_streams", "a", "-show_packets", "-show_data",
                                             "-of", "json", output])
        struct Packets: Decodable {
            struct Packet: Decodable { var duration: Int; var size: String; var data: String }
            var packets: [Packet]
        }
        let packets = try JSONDecoder().decode(Packets.self, from: Data(probe.text.utf8)).packets
        try #require(packets.count > 100)
        // The last packet is whole too, but the stream's end trims what ffprobe says it lasts.
        #expect(packets.dropLast().allSatisfy { $0.duration == 960 }, "every packet lasts 20 ms at 48 kHz")
        // ffprobe dumps each packet as "00000000: 781e ff13 ...": the first byte is the TOC.
        let tocs = try packets.map { packet in
            let words = packet.data.split(whereSeparator: \.isWhitespace)
            return try #require(words.count > 1 ? UInt8(words[1].prefix(2), radix: 16) : nil, "cannot read \(packet.data.prefix(40))")
        }
        #expect(tocs.allSatisfy { $0 & 3 == 0 }, "one frame per packet")
        let speechModes = tocs.filter { $0 >> 3 < 16 }.count
        #expect(Double(speechModes) >= 0.9 * Double(tocs.count), "\(speechModes) of \(tocs.count) packets in SILK or hybrid mode")
        #expect(Set(packets.map(\.size)).count > 10, "packet sizes vary: VBR")

        let info = try Tool.run("opusinfo", [output]).text
        let line = try #require(info.split(separator: "\n").first { $0.contains("Average bitrate") }, "\(info)")
        let kbps = try #require(line.split(separator: " ").compactMap { Double($0) }.first, "\(line)")
        #expect(kbps >= 20 && kbps <= 30, "opusinfo: \(line)")
    }
}
