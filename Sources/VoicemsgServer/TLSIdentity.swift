import Foundation
import HummingbirdTLS
import NIOSSL

/// The certificate and private key `voicemsg serve --tls-cert --tls-key` serves HTTPS with.
///
/// Browsers give the microphone only to a secure context, so a phone on the LAN needs HTTPS to
/// record. Everything is checked here, before the server starts, so that a wrong file is one
/// line naming the option and the file rather than a failed handshake on the first request.
public struct TLSIdentity: Sendable {
    let configuration: TLSConfiguration

    /// Reads both PEM files and checks that the key belongs to the certificate.
    public init(certificatePath: String, keyPath: String) throws(TLSIdentityError) {
        let certificateBytes = try Self.read(certificatePath, option: "--tls-cert")
        let keyBytes = try Self.read(keyPath, option: "--tls-key")
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMBytes(certificateBytes)
        } catch {
            chain = []
        }
        guard !chain.isEmpty else {
            throw TLSIdentityError(
                "--tls-cert \(certificatePath): not a PEM certificate (expected a -----BEGIN CERTIFICATE----- block)")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(bytes: keyBytes, format: .pem)
        } catch {
            throw TLSIdentityError(
                "--tls-key \(keyPath): not a PEM private key, or one protected by a passphrase (expected a -----BEGIN PRIVATE KEY----- block)")
        }
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        // BoringSSL checks here that the key matches the certificate's public key.
        do {
            _ = try NIOSSLContext(configuration: configuration)
        } catch NIOSSLError.failedToLoadPrivateKey {
            throw TLSIdentityError(
                "--tls-key \(keyPath) does not belong to the certificate in --tls-cert \(certificatePath); give the key the certificate was made with")
        } catch {
            throw TLSIdentityError("--tls-cert \(certificatePath) and --tls-key \(keyPath) cannot be used: \(error)")
        }
        self.configuration = configuration
    }

    /// The file's bytes, or why it cannot be read, named by its option.
    static func read(_ path: String, option: String) throws(TLSIdentityError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw TLSIdentityError("\(option) \(path): no such file")
        }
        guard !isDirectory.boolValue else { throw TLSIdentityError("\(option) \(path): is a folder, not a PEM file") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw TLSIdentityError("\(option) \(path): not readable by this user (permission denied)")
        }
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw TLSIdentityError("\(option) \(path): cannot be read (\(error.localizedDescription))")
        }
    }
}

/// Why `--tls-cert`/`--tls-key` cannot be used: one line naming the option, the file and the fix.
public struct TLSIdentityError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
