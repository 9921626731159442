/// Where a message is in its life: uploaded and waiting, being processed, done, or given up on.
public enum MessageStatus: String, Codable, Sendable, CaseIterable {
    case queued
    case processing
    case ready
    case failed
}
