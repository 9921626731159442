// The containers voicemsg reads itself, and the WAV header check libsndfile's refusals fall
// back on. Each returns a value or throws; anything else is a finding.
let fuzzTargets: [String: ([UInt8]) -> Void] = [
    "ogg": { bytes in
        if let stream = try? OggOpusReader.read(bytes) { _ = stream.packets.count }
    },
    "caf": { bytes in
        if let stream = try? CAFOpusReader.read(bytes) { _ = stream.packets.count }
    },
    "wav": { bytes in
        if let header = WAVHeader(bytes) { _ = header.problem }
    },
]
