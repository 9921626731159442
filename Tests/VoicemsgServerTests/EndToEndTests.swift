import AudioPipeline
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TestSupport

@testable import VoicemsgServer

/// Uploads over real HTTP to the whole server with two workers, processed by the real pipeline,
/// judged by `opusinfo`, ffprobe, ffmpeg and opusdec.
@Suite(.serialized) struct EndToEndTests {
    struct Recording {
        var file: String
        var marker: String
        var sender: String
    }

    /// Five spoken messages in five formats, made with espeak-ng, sox and ffmpeg.
    static func makeRecordings(in directory: TemporaryDirectory) throws -> [Recording] {
        func speech(_ text: String, _ name: String) throws -> String {
            let raw = directory.file("\(name)-raw.wav")
            try Tool.run("espeak-ng", ["-w", raw, text])
            // Dead air at both ends, as a phone recording has.
            let padded = directory.file("\(name)-padded.wav")
            try Tool.run("sox", [raw, padded, "pad", "0.6", "0.8"])
            return padded
        }
        var recordings: [Recording] = []
        let wav = directory.file("one.wav")
        try Tool.run("sox", [try speech("One kilometre done, keep going", "a"), "-r", "16000", wav])
        recordings.append(Recording(file: wav, marker: "1km", sender: "Ann"))
        let flac = directory.file("two.flac")
        try Tool.run("sox", [try speech("Halfway there, we are so proud", "b"), "-r", "44100", "-c", "2", flac])
        recordings.append(Recording(file: flac, marker: "halfway", sender: "Bo"))
        let mp3 = directory.file("three.mp3")
        try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", try speech("Three miles, looking strong", "c"), "-c:a", "libmp3lame", mp3])
        recordings.append(Recording(file: mp3, marker: "3mi", sender: "Cy"))
        let ogg = directory.file("four.ogg")
        try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", try speech("Two kilometres to go", "d"), "-c:a", "libvorbis", ogg])
        recordings.append(Recording(file: ogg, marker: "finish-2km", sender: "Di"))
        let aiff = directory.file("five.aiff")
        try Tool.run("sox", [try speech("You did it, welcome to the finish", "e"), "-r", "48000", aiff])
        recordings.append(Recording(file: aiff, marker: "finish", sender: "Ed"))
        return recordings
    }

    @Test func uploadsBecomeAManifestOfPlayableOpusInMarkerOrderOnSQLite() async throws { try await uploadsBecomeAManifestOfPlayableOpusInMarkerOrder(.sqlite) }
    @Test(.needsPostgreSQL) func uploadsBecomeAManifestOfPlayableOpusInMarkerOrderOnPostgreSQL() async throws { try await uploadsBecomeAManifestOfPlayableOpusInMarkerOrder(.postgres) }
    private func uploadsBecomeAManifestOfPlayableOpusInMarkerOrder(_ backend: Backend) async throws {
        let server = try TestServer(backend, workers: 2)
        let directory = server.directory
        let recordings = try Self.makeRecordings(in: directory)
        try await server.app.test(.live) { client in
            let created = try await client.execute(
                uri: "/v1/runs", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"title":"Sunday 10k","plannedDistanceMeters":10000}"#))
            #expect(created.status == .created)
            let runInfo = try JSONDecoder().decode(CreateRunResponse.self, from: Data(buffer: created.body))

            var ids: [String: Recording] = [:]
            for recording in recordings {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: recording.file))
                let response = try await client.execute(
                    uri: "/v1/runs/\(runInfo.id)/messages?marker=\(recording.marker)&sender=\(recording.sender)",
                    method: .post, headers: bearer(runInfo.inviteToken), body: ByteBuffer(bytes: bytes))
                #expect(response.status == .accepted)
                let uploaded = try JSONDecoder().decode(UploadResponse.self, from: Data(buffer: response.body))
                ids[uploaded.id] = recording
            }
            let garbage = Data((0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) })
            let badResponse = try await client.execute(
                uri: "/v1/runs/\(runInfo.id)/messages?marker=2km&sender=Glitch", method: .post,
                headers: bearer(runInfo.inviteToken), body: ByteBuffer(bytes: garbage))
            #expect(badResponse.status == .accepted)
            let bad = try JSONDecoder().decode(UploadResponse.self, from: Data(buffer: badResponse.body))

            // Poll every message until none is queued or processing.
            var statuses: [String: MessageResponse] = [:]
            let deadline = Date().addingTimeInterval(180)
            while Date() < deadline {
                for id in Array(ids.keys) + [bad.id] {
                    let response = try await client.execute(
                        uri: "/v1/messages/\(id)", method: .get, headers: bearer(runInfo.inviteToken))
                    statuses[id] = try JSONDecoder().decode(MessageResponse.self, from: Data(buffer: response.body))
                }
                if statuses.values.allSatisfy({ $0.status == .ready || $0.status == .failed }) { break }
                try await Task.sleep(for: .milliseconds(200))
            }
            for id in ids.keys {
                #expect(statuses[id]?.status == .ready, "\(ids[id]!.file): \(String(describing: statuses[id]))")
            }

            // The bad recording fails at once with the pipeline's own words.
            let failed = try #require(statuses[bad.id])
            #expect(failed.status == .failed)
            #expect(failed.attempts == 1, "a clear pipeline error is not retried")
            var expected = ""
            do {
                // The server decodes every upload in the isolated child, so its words are the child's.
                _ = try MessagePipeline(configuration: PipelineMessageProcessor.uploadConfiguration).process(
                    .data(garbage, name: bad.id), metadata: MessageMetadata(marker: .absolute(meters: 2000)))
            } catch {
                expected = "\(error)"
            }
            #expect(!expected.isEmpty)
            #expect(failed.error == expected)

            let manifestResponse = try await client.execute(
                uri: "/v1/runs/\(runInfo.id)/manifest", method: .get, headers: bearer(runInfo.ownerToken))
            #expect(manifestResponse.status == .ok)
            let manifest = try JSONDecoder().decode(ManifestResponse.self, from: Data(buffer: manifestResponse.body))
            #expect(manifest.messages.map(\.marker) == ["1000m", "4828.03m", "50%", "finish-2000m", "finish"])
            #expect(manifest.pending == 0)
            #expect(manifest.failed == 1)

            for entry in manifest.messages {
                let audio = try await client.execute(
                    uri: entry.audioURL, method: .get, headers: bearer(runInfo.ownerToken))
                #expect(audio.status == .ok)
                let bytes = Data(buffer: audio.body)
                #expect(bytes.count == entry.bytes)
                #expect(SecureIdentifier.hexSHA256(bytes) == entry.sha256)
                #expect(entry.durationSeconds > 1 && entry.durationSeconds < 6)
                let file = directory.file("\(entry.id).opus")
                try bytes.write(to: URL(fileURLWithPath: file))
                let info = try Tool.run("opusinfo", [file], check: false)
                #expect(info.status == 0, "\(info.output)")
                #expect(info.output.contains("DISTANCE_MARKER=\(entry.marker)"), "\(info.output)")
                #expect(info.output.contains("SENDER=\(ids[entry.id]?.sender ?? "?")"))
                #expect(!info.output.contains("WARNING"), "\(info.output)")

                // The same message as Opus in CAF: the same packets and exact length, and ffprobe
                // reads it as Opus.
                let caf = try await client.execute(
                    uri: entry.audioURL + "?container=caf", method: .get, headers: bearer(runInfo.ownerToken))
                #expect(caf.status == .ok)
                #expect(caf.headers[.contentType] == "audio/x-caf")
                let cafBytes = Data(buffer: caf.body)
                let fromCAF = try CAFOpusReader.read([UInt8](cafBytes))
                let fromOgg = try OggOpusReader.read([UInt8](bytes))
                #expect(fromCAF.packets == fromOgg.packets)
                #expect(fromCAF.validSampleCount == fromOgg.validSampleCount)
                #expect(fromCAF.preSkip == fromOgg.preSkip)
                let cafFile = directory.file("\(entry.id).caf")
                try cafBytes.write(to: URL(fileURLWithPath: cafFile))
                let probe = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", cafFile])
                #expect(probe.output.trimmingCharacters(in: .whitespacesAndNewlines) == "opus", "\(probe.output)")

                // Judged by other decoders, not by voicemsg's readers: ffmpeg (through libopus)
                // decodes the CAF and opusdec the Ogg, and they hear the same samples. ffmpeg
                // does not trim a CAF's priming frames, so its decode starts pre-skip early and
                // runs to the end of the last packet.
                let heardFromCAF = try ReferenceTools.samples(decodedBy: "ffmpeg", cafFile)
                let heardFromOgg = try ReferenceTools.samples(decodedBy: "opusdec", file)
                #expect(heardFromOgg.count == fromOgg.validSampleCount)
                // The manifest's duration is what opusdec plays, to the sample.
                #expect(abs(entry.durationSeconds - Double(heardFromOgg.count) / 48_000) < 0.5 / 48_000,
                        "manifest says \(entry.durationSeconds) s, opusdec plays \(heardFromOgg.count) samples")
                #expect(heardFromCAF.count == fromOgg.packets.count * 960, "ffmpeg decoded \(heardFromCAF.count) samples")
                let aligned = heardFromCAF.dropFirst(fromOgg.preSkip).prefix(heardFromOgg.count)
                #expect(aligned.count == heardFromOgg.count)
                let difference = zip(aligned, heardFromOgg).map { abs($0 - $1) }.max() ?? .infinity
                #expect(difference < 1e-3, "the CAF through ffmpeg differs from the Ogg through opusdec by \(difference)")

                // And as Opus in WebM, for Safari from iOS 17.4: ffmpeg honours its codec delay
                // and discard padding, so it plays exactly what opusdec plays from the Ogg.
                let webm = try await client.execute(
                    uri: entry.audioURL + "?container=webm", method: .get, headers: bearer(runInfo.ownerToken))
                #expect(webm.status == .ok)
                #expect(webm.headers[.contentType] == "audio/webm")
                #expect(webm.headers[.eTag] == "\"\(entry.sha256)-webm\"")
                let webmFile = directory.file("\(entry.id).webm")
                try Data(buffer: webm.body).write(to: URL(fileURLWithPath: webmFile))
                let webmProbe = try Tool.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name:format=format_name", "-of", "csv=p=0", webmFile])
                #expect(webmProbe.output.contains("opus") && webmProbe.output.contains("webm"), "\(webmProbe.output)")
                let heardFromWebM = try ReferenceTools.samples(decodedBy: "ffmpeg", webmFile)
                #expect(heardFromWebM.count == heardFromOgg.count, "ffmpeg decoded \(heardFromWebM.count) samples of the WebM")
                let webmDifference = zip(heardFromWebM, heardFromOgg).map { abs($0 - $1) }.max() ?? .infinity
                #expect(webmDifference < 1e-3, "the WebM through ffmpeg differs from the Ogg through opusdec by \(webmDifference)")
            }
        }
    }
}
