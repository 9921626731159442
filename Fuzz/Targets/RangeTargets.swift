// The HTTP `Range` header against bodies of a few lengths. The first two bytes choose the
// length; the rest is the header text.
let fuzzTargets: [String: ([UInt8]) -> Void] = [
    "range": { bytes in
        let length = bytes.count >= 2 ? Int(bytes[0]) << 8 | Int(bytes[1]) : 0
        let header = String(decoding: bytes.dropFirst(2), as: UTF8.self)
        for body in [0, 1, length] {
            if case .partial(let range) = ByteRange(header: header, length: body) {
                precondition(range.lowerBound >= 0 && range.upperBound < body, "range \(range) outside a body of \(body) bytes: \(header)")
            }
        }
    },
]
