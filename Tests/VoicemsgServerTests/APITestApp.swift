import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport

@testable import VoicemsgServer

/// What every suite that calls the API asks of a request and its answer: the bearer header a
/// token goes in, and the answer's JSON decoded.
protocol CallsTheAPI {}

extension CallsTheAPI {
    static func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }

    static func json<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        try JSONDecoder().decode(type, from: Data(buffer: response.body))
    }
}
