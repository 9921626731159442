import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth

/// What a request shows to prove access: its bearer token, kept only as the SHA-256 hash that
/// runs store, so it is compared with them in constant time and never held in the clear.
public struct BearerCredential: Sendable {
    let tokenHash: String
}

/// Reads `Authorization: Bearer …` into the request's identity, through hummingbird-auth.
///
/// It only finds the token. Which run the token opens depends on the route (the run in the
/// path, or the run of the message in the path), so the handler decides, and a request without
/// a token reaches it too and gets 401 there.
struct BearerAuthenticator: AuthenticatorMiddleware {
    typealias Context = VoicemsgRequestContext

    func authenticate(request: Request, context: Context) async throws -> BearerCredential? {
        guard let token = Self.schemeSpeltBearer(request.headers).bearer?.token.trimmingCharacters(in: .whitespaces),
            !token.isEmpty
        else { return nil }
        return BearerCredential(tokenHash: SecureIdentifier.hash(token: token))
    }

    /// The headers with the Authorization scheme spelt `Bearer`. The scheme is case-insensitive
    /// (RFC 7235 §2.1, RFC 6750 §2.1), so clients may send `bearer` or `BEARER`, but
    /// hummingbird-auth 2.5's `bearer` looks for `Bearer ` exactly.
    static func schemeSpeltBearer(_ headers: HTTPFields) -> HTTPFields {
        guard let value = headers[.authorization], let space = value.firstIndex(of: " "),
            !value.hasPrefix("Bearer "), value[..<space].lowercased() == "bearer"
        else { return headers }
        var headers = headers
        headers[.authorization] = "Bearer" + value[space...]
        return headers
    }
}
