import ArgumentParser
import AudioPipeline

/// What `encode` writes: the Opus message in one of its containers, or its AAC version in an
/// M4A, for browsers that play no Opus (Safari before iOS 17.4). `--format` takes the name,
/// `-o` the extension.
enum MessageFormat: Equatable, ExpressibleByArgument, CustomStringConvertible {
    case opus(OpusContainer)
    case m4a

    init?(argument: String) {
        if argument == "m4a" {
            self = .m4a
        } else if let container = OpusContainer(rawValue: argument) {
            self = .opus(container)
        } else {
            return nil
        }
    }

    /// `.m4a` is AAC in MP4; the Opus containers' extensions are theirs; anything else is nil.
    init?(pathExtension: String) {
        if pathExtension.lowercased() == "m4a" {
            self = .m4a
        } else if let container = OpusContainer(pathExtension: pathExtension) {
            self = .opus(container)
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { OpusContainer.allCases.map(\.rawValue) + ["m4a"] }

    /// The name `--format` takes.
    var name: String {
        switch self {
        case .opus(let container): return container.rawValue
        case .m4a: return "m4a"
        }
    }

    var pathExtension: String {
        switch self {
        case .opus(let container): return container.pathExtension
        case .m4a: return "m4a"
        }
    }

    var description: String {
        switch self {
        case .opus(let container): return container.description
        case .m4a: return "AAC in M4A"
        }
    }
}
