import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The API's JSON bodies (`POST /v1/runs`, `POST /v1/messages/{id}/played`), read by
/// Hummingbird's `request.decode(as:context:)` up to the context's `maxUploadSize`: Hummingbird
/// answers a body that is not the expected JSON with 400 and the reason. Past the limit its own
/// answer is a bare 413; this one says what the limit is, as every other refusal says why.
public struct JSONRequestDecoder: RequestDecoder {
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        do {
            return try await JSONDecoder().decode(type, from: request, context: context)
        } catch is NIOTooManyBytesError {
            throw HTTPError(.contentTooLarge, message: "JSON bodies are limited to \(context.maxUploadSize) bytes")
        }
    }
}
