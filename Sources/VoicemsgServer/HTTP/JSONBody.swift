import Foundation
import HTTPTypes
import Hummingbird

/// The small JSON bodies of the API (`POST /v1/runs`, `POST /v1/messages/{id}/played`): read up
/// to a limit, so a body over it answers 413 rather than being taken for malformed JSON (400).
enum JSONBody {
    /// Far above any valid body: a title is at most 800 bytes, the rest are numbers.
    static let maxBytes = 64 * 1024

    /// The decoded body; 413 past `maxBytes`, 400 with `expected` when it is not that JSON.
    static func decode<Value: Decodable>(
        _ type: Value.Type, from request: Request, expected: String
    ) async throws -> Value {
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > maxBytes {
            throw HTTPError(.contentTooLarge, message: "JSON bodies are limited to \(maxBytes) bytes")
        }
        var buffer = ByteBuffer()
        for try await chunk in request.body {
            guard buffer.readableBytes + chunk.readableBytes <= maxBytes else {
                throw HTTPError(.contentTooLarge, message: "JSON bodies are limited to \(maxBytes) bytes")
            }
            var chunk = chunk
            buffer.writeBuffer(&chunk)
        }
        do {
            return try JSONDecoder().decode(Value.self, from: Data(buffer: buffer))
        } catch {
            throw HTTPError(.badRequest, message: expected)
        }
    }
}
