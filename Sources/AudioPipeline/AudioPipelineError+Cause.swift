extension AudioPipelineError {
    /// A C library's own account of a call that failed, kept under the error a person reads.
    public struct Cause: Sendable, Equatable, CustomStringConvertible {
        /// The library: `libsndfile`, `libopus`, `libsoxr` or `libebur128`.
        public var library: String
        /// The C function that failed, such as `opus_encoder_create`.
        public var function: String
        /// The library's numeric code, when it has one (libsoxr reports failures as text only).
        public var code: Int?
        /// The library's words for the failure, such as `invalid argument`.
        public var reason: String

        /// A library's account of a failed call.
        public init(library: String, function: String, code: Int?, reason: String) {
            self.library = library
            self.function = function
            self.code = code
            self.reason = reason
        }

        /// `libopus opus_encoder_create: -1 (invalid argument)`.
        public var description: String {
            "\(library) \(function): " + (code.map { "\($0) (\(reason))" } ?? reason)
        }
    }
}
