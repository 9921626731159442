import Foundation

/// A run as stored: its tokens only as SHA-256 hashes. It decodes from a row of `runs` by its
/// column names (`CodingKeys`).
public struct RunRecord: Sendable, Equatable, Decodable {
    public var id: String
    public var title: String
    public var plannedDistanceMeters: Double?
    /// The runner's name, as they gave it when planning the run, so that friends see whose
    /// run they record for.
    public var runnerName: String?
    public var ownerTokenHash: String
    public var inviteTokenHash: String
    /// Seconds since 1970.
    public var createdAt: Double

    public init(
        id: String, title: String, plannedDistanceMeters: Double?, runnerName: String? = nil,
        ownerTokenHash: String, inviteTokenHash: String, createdAt: Double
    ) {
        self.id = id
        self.title = title
        self.plannedDistanceMeters = plannedDistanceMeters
        self.runnerName = runnerName
        self.ownerTokenHash = ownerTokenHash
        self.inviteTokenHash = inviteTokenHash
        self.createdAt = createdAt
    }

    /// The columns of `runs` that hold each property.
    enum CodingKeys: String, CodingKey {
        case id
        case title
        case plannedDistanceMeters = "planned_distance_meters"
        case runnerName = "runner_name"
        case ownerTokenHash = "owner_token_hash"
        case inviteTokenHash = "invite_token_hash"
        case createdAt = "created_at"
    }
}
