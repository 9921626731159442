import Foundation

/// `If-None-Match` as RFC 9110 defines it: `*`, or a list of entity tags compared weakly, so
/// `W/"abc"` matches `"abc"` (a proxy or a browser may weaken a tag it stored).
enum EntityTag {
    static func ifNoneMatch(_ header: String?, matches etag: String) -> Bool {
        guard let header else { return false }
        let mine = opaque(etag)
        return header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || opaque(tag) == mine
        }
    }

    /// The tag without its weakness prefix.
    private static func opaque(_ tag: String) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
    }
}
