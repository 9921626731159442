/// Where a message is in its life: uploaded and waiting, being processed, done, or given up on.
public enum MessageStatus: String, Codable, Sendable, CaseIterable {
    case queued
    case processing
    case ready
    case failed
}

extension MessageStatus {
    /// The status a row holds; one this version does not know is an error, never a default.
    init(stored text: String) throws {
        guard let status = MessageStatus(rawValue: text) else {
            throw StoreError(.unreadableRow, "a stored message has the status \"\(text)\", which this version does not know")
        }
        self = status
    }
}
