import Foundation
import HTTPTypes
import Hummingbird

// Apart from ByteRange.swift, which the fuzzer builds alone (scripts/fuzz.sh), without Hummingbird.
extension ByteRange {
    /// The answer to a GET of `bytes`, whose validator is `etag`, with `headers` already set
    /// (`Accept-Ranges: bytes` among them): 200 and the whole body, 206 and the one range asked
    /// for, or 416. A `Range` with an `If-Range` naming another version gets the whole, current
    /// body: `If-Range` compares strongly (RFC 9110 §13.1.5), so only this very tag asks for a
    /// part.
    static func response(to request: Request, bytes: Data, etag: String, headers: HTTPFields) -> Response {
        var headers = headers
        var range = ByteRange(header: request.headers[.range], length: bytes.count)
        if let ifRange = request.headers[.ifRange], ifRange != etag { range = .whole }
        switch range {
        case .whole:
            headers[.contentLength] = "\(bytes.count)"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        case .partial(let span):
            let slice = bytes.subdata(in: (bytes.startIndex + span.lowerBound)..<(bytes.startIndex + span.upperBound + 1))
            headers[.contentRange] = "bytes \(span.lowerBound)-\(span.upperBound)/\(bytes.count)"
            headers[.contentLength] = "\(slice.count)"
            return Response(status: .partialContent, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: slice)))
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(bytes.count)"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
    }
}
