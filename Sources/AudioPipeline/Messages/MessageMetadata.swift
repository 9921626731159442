import RunTracking
/// Who a message is from and where on the run it belongs; written to the output's tags.
public struct MessageMetadata: Sendable, Equatable, Codable {
    /// Where on the run the message plays.
    public var marker: DistanceMarker
    /// Who it is from.
    public var sender: String?
    /// The run it belongs to, when a server made it.
    public var runID: String?
    /// The message's own id, when a server made it.
    public var messageID: String?
    /// The run's title.
    public var title: String?

    /// The metadata of a message at `marker`.
    public init(marker: DistanceMarker, sender: String? = nil, runID: String? = nil,
                messageID: String? = nil, title: String? = nil) {
        self.marker = marker
        self.sender = sender
        self.runID = runID
        self.messageID = messageID
        self.title = title
    }
}
