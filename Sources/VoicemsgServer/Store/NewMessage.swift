import RunTracking
/// An accepted upload, before it is stored: the marker is already parsed and resolved.
public struct NewMessage: Sendable {
    public var id: String
    public var runID: String
    /// The marker as the upload parsed it; the store keeps it with its canonical text
    /// (`StoredMarker`), and a worker gets it back without parsing anything.
    public var marker: DistanceMarker
    public var markerMeters: Double
    public var sender: String?
    /// A retried upload with the same key returns the first message instead of a new one.
    public var idempotencyKey: String?
    public var maxAttempts: Int
    /// SHA-256 of the token that lets the sender read and delete this message only.
    public var senderTokenHash: String?
    /// `IdempotencyFingerprint` of the upload, stored so a retry with the same key can be
    /// told apart from a different upload reusing it.
    public var requestFingerprint: String?

    public init(
        id: String, runID: String, marker: DistanceMarker, markerMeters: Double, sender: String?,
        idempotencyKey: String?, maxAttempts: Int, senderTokenHash: String? = nil,
        requestFingerprint: String? = nil
    ) {
        self.id = id
        self.runID = runID
        self.marker = marker
        self.markerMeters = markerMeters
        self.sender = sender
        self.idempotencyKey = idempotencyKey
        self.maxAttempts = maxAttempts
        self.senderTokenHash = senderTokenHash
        self.requestFingerprint = requestFingerprint
    }
}
