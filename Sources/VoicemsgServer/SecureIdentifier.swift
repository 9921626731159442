import Crypto
import Foundation

/// Ids and tokens that cannot be guessed, and the check that keeps path-like ids out.
///
/// Both come from the system's CSPRNG and are written in URL-safe base64 without padding, so
/// they can go in a path or a header as they are.
public enum SecureIdentifier {
    /// A new id: 128 random bits, 22 URL-safe characters.
    public static func makeID() -> String { randomString(byteCount: 16) }

    /// A new bearer token: 256 random bits, 43 URL-safe characters.
    public static func makeToken() -> String { randomString(byteCount: 32) }

    /// True for ids this server could have made: 1 to 64 characters from `A-Z a-z 0-9 - _`.
    ///
    /// Everything else is refused before it reaches storage or a file name: `../x`, `a/b`, `.`,
    /// empty strings and percent-encodings never pass.
    public static func isValid(_ id: some StringProtocol) -> Bool {
        guard (1...64).contains(id.utf8.count) else { return false }
        return id.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                return true
            default:
                return false
            }
        }
    }

    /// The SHA-256 of a token, in lower-case hex: tokens are stored only in this form.
    public static func hash(token: String) -> String {
        hexSHA256(Data(token.utf8))
    }

    /// Lower-case hex SHA-256 of some bytes.
    public static func hexSHA256(_ bytes: Data) -> String {
        SHA256.hash(data: bytes).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// Compares two strings in time that depends only on their lengths, so a token check does
    /// not tell an attacker how many leading characters were right.
    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }

    private static func randomString(byteCount: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
