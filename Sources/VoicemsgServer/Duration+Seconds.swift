extension Duration {
    /// This duration in seconds, for what counts time in `Double` seconds: the stores' clocks
    /// (seconds since 1970), the API's JSON and the log lines.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
