#if canImport(CommonCrypto)
import CommonCrypto
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// SHA-256 of a file, by the platform's own crypto library: CommonCrypto on Apple platforms,
/// OpenSSL's libcrypto (EVP) elsewhere, opened with `dlopen` the first time a file is checked.
/// Only a message that needs the noise suppressor checks files, so a clean message never
/// loads either, and linking a crypto package into every binary would cost each run resident
/// pages for code it seldom needs.
enum FileDigest {
    /// The lower-case hex SHA-256 of the file at `path`, read a megabyte at a time.
    static func sha256(ofFileAt path: String) throws -> String {
        guard let file = try? FileDescriptor.open(path, .readOnly) else {
            throw AudioPipelineError(.invalidConfiguration, "\(path) is missing")
        }
        defer { try? file.close() }
        let digest = try Digest()
        var piece = [UInt8](repeating: 0, count: 1 << 20)
        do {
            while true {
                let count = try piece.withUnsafeMutableBytes { try file.read(into: $0) }
                if count == 0 { break }
                piece.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            }
        } catch {
            throw AudioPipelineError(.io, "cannot read \(path) (\(error))")
        }
        return digest.finalize().map { String(printf: "%02x", $0) }.joined()
    }

    #if canImport(CommonCrypto)
    /// One digest in progress.
    private final class Digest {
        private var context = CC_SHA256_CTX()
        init() throws { CC_SHA256_Init(&context) }
        func update(_ bytes: UnsafeRawBufferPointer) {
            _ = CC_SHA256_Update(&context, bytes.baseAddress, CC_LONG(bytes.count))
        }
        func finalize() -> [UInt8] {
            var digest = [UInt8](repeating: 0, count: Int(CC_SHA256_DIGEST_LENGTH))
            CC_SHA256_Final(&digest, &context)
            return digest
        }
    }
    #else
    /// libcrypto's EVP digest calls, looked up once per process.
    private struct EVP: @unchecked Sendable {
        typealias NewContext = @convention(c) () -> OpaquePointer?
        typealias FreeContext = @convention(c) (OpaquePointer?) -> Void
        typealias Algorithm = @convention(c) () -> OpaquePointer?
        typealias Initialize = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
        typealias Update = @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int) -> Int32
        typealias Finish = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>?) -> Int32

        let newContext: NewContext
        let freeContext: FreeContext
        let sha256: Algorithm
        let initialize: Initialize
        let update: Update
        let finish: Finish

        static let loaded: Result<EVP, AudioPipelineError> = {
            guard let handle = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL) ?? dlopen("libcrypto.so", RTLD_NOW | RTLD_LOCAL) else {
                return .failure(AudioPipelineError(
                    .invalidConfiguration, "cannot check SHA-256 digests: OpenSSL's libcrypto is not installed (Debian: libssl3)"))
            }
            func symbol<T>(_ name: String, as type: T.Type) -> T? { dlsym(handle, name).map { unsafeBitCast($0, to: type) } }
            guard let newContext = symbol("EVP_MD_CTX_new", as: NewContext.self),
                  let freeContext = symbol("EVP_MD_CTX_free", as: FreeContext.self),
                  let sha256 = symbol("EVP_sha256", as: Algorithm.self),
                  let initialize = symbol("EVP_DigestInit_ex", as: Initialize.self),
                  let update = symbol("EVP_DigestUpdate", as: Update.self),
                  let finish = symbol("EVP_DigestFinal_ex", as: Finish.self)
            else {
                return .failure(AudioPipelineError(.invalidConfiguration, "cannot check SHA-256 digests: libcrypto lacks the EVP digest calls"))
            }
            return .success(EVP(newContext: newContext, freeContext: freeContext, sha256: sha256,
                                initialize: initialize, update: update, finish: finish))
        }()
    }

    /// One digest in progress; its context is freed with it.
    private final class Digest {
        private let evp: EVP
        private let context: OpaquePointer

        init() throws {
            evp = try EVP.loaded.get()
            guard let context = evp.newContext(), evp.initialize(context, evp.sha256(), nil) == 1 else {
                throw AudioPipelineError(.invalidConfiguration, "cannot check SHA-256 digests: libcrypto would not start one")
            }
            self.context = context
        }

        deinit { evp.freeContext(context) }

        func update(_ bytes: UnsafeRawBufferPointer) {
            _ = evp.update(context, bytes.baseAddress, bytes.count)
        }

        func finalize() -> [UInt8] {
            var digest = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            _ = evp.finish(context, &digest, &length)
            return Array(digest.prefix(Int(length)))
        }
    }
    #endif
}
