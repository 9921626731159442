import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import VoicemsgServer

/// The Authorization scheme is case-insensitive (RFC 7235 §2.1): a token sent as `bearer …`
/// opens the run as `Bearer …` does, and anything that is not the bearer scheme opens nothing.
extension APITests {
    @Test(arguments: ["bearer", "BEARER", "bEaReR", "Bearer"])
    func bearerSchemeInAnyCase(_ scheme: String) async throws {
        try await server.app.test(.router) { client in
            let run = try await createRun(client)
            let owner: HTTPFields = [.authorization: "\(scheme) \(run.ownerToken)"]
            let invite: HTTPFields = [.authorization: "\(scheme) \(run.inviteToken)"]
            let manifest = "/v1/runs/\(run.id)/manifest"
            #expect(try await client.execute(uri: manifest, method: .get, headers: owner).status == .ok)
            // The token is read, not only tolerated: the invite token still is not the owner's.
            #expect(try await client.execute(uri: manifest, method: .get, headers: invite).status == .forbidden)
            let upload = try await client.execute(
                uri: "/v1/runs/\(run.id)/messages?marker=5km&sender=Ann", method: .post, headers: invite,
                body: ByteBuffer(bytes: [UInt8](repeating: 7, count: 1000)))
            #expect(upload.status == .accepted)
        }
    }

    @Test(arguments: ["Basic ", "Bearer", "Bearer:", "Bearertoken", "Token "])
    func otherSchemesOpenNothing(_ prefix: String) async throws {
        try await server.app.test(.router) { client in
            let run = try await createRun(client)
            let headers: HTTPFields = [.authorization: "\(prefix)\(run.ownerToken)"]
            let response = try await client.execute(uri: "/v1/runs/\(run.id)/manifest", method: .get, headers: headers)
            #expect(response.status == .unauthorized)
        }
    }
}
