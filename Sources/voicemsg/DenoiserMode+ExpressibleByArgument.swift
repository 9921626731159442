import ArgumentParser
import AudioPipeline

/// `--denoise auto`, `--denoise off`, or an engine's name (`--denoise deepfilternet`).
extension Denoiser.Mode: ExpressibleByArgument {
    public init?(argument: String) {
        switch argument.lowercased() {
        case "auto": self = .automatic
        case "off": self = .off
        default:
            guard let engine = Denoiser.Engine(rawValue: argument.lowercased()) else { return nil }
            self = .engine(engine)
        }
    }

    public var defaultValueDescription: String {
        switch self {
        case .automatic: return "auto"
        case .off: return "off"
        case .engine(let engine): return engine.rawValue
        }
    }

    public static var allValueStrings: [String] { ["auto", "off"] + Denoiser.Engine.allCases.map(\.rawValue) }
}
