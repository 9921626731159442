import RunTracking
/// Who a message is from and where on the run it belongs; written to the output's tags.
public struct MessageMetadata: Sendable, Equatable, Codable {
    public var marker: DistanceMarker
    public var sender: String?
    public var runID: String?
    public var messageID: String?
    public var title: String?

    public init(marker: DistanceMarker, sender: String? = nil, runID: String? = nil,
                messageID: String? = nil, title: String? = nil) {
        self.marker = marker
        self.sender = sender
        self.runID = runID
        self.messageID = messageID
        self.title = title
    }
}
