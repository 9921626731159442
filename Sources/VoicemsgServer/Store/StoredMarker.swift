import RunTracking

/// A message's marker as the store keeps it: the canonical text that the API shows and sorts
/// ties by, and beside it the marker the upload parsed, as its case (`marker_kind`) and its
/// number (`marker_value`). A worker gets that marker back, not text to parse again, so what it
/// tags the message with is what the upload accepted, whatever a later parser would make of the
/// text.
public struct StoredMarker: Sendable, Equatable {
    /// `DistanceMarker.canonical`: `5000m`, `50%`, `finish`, `finish-1000m`.
    public var canonical: String
    /// The marker's case, `absolute`, `percent` or `before-finish`; nil in a row that a server
    /// from before these columns wrote into a migrated database while it still ran.
    public var kind: String?
    /// The case's number: metres for `absolute` and `before-finish`, percent for `percent`.
    public var value: Double?

    /// The columns for `marker`.
    public init(_ marker: DistanceMarker) {
        canonical = marker.canonical
        switch marker {
        case .absolute(let meters): (kind, value) = (Self.absolute, meters)
        case .percent(let share): (kind, value) = (Self.percent, share)
        case .beforeFinish(let meters): (kind, value) = (Self.beforeFinish, meters)
        }
    }

    /// The columns as a row holds them.
    public init(canonical: String, kind: String?, value: Double?) {
        self.canonical = canonical
        self.kind = kind
        self.value = value
    }

    /// The marker. A row without its kind (see `kind`) is read back from its canonical text,
    /// the one way that row allows; an unknown kind, written by a newer server, likewise.
    public func marker() throws(RunTrackingError) -> DistanceMarker {
        switch (kind, value) {
        case (Self.absolute, let meters?): return .absolute(meters: meters)
        case (Self.percent, let share?): return .percent(share)
        case (Self.beforeFinish, let meters?): return .beforeFinish(meters: meters)
        default: return try DistanceMarker(parsing: canonical)
        }
    }

    static let absolute = "absolute"
    static let percent = "percent"
    static let beforeFinish = "before-finish"

    /// Fills `marker_kind` and `marker_value` of the rows that have only the canonical text, from
    /// that text, in SQL that SQLite and PostgreSQL both run (`DOUBLE PRECISION` is REAL to
    /// SQLite). Canonical text is one of four shapes: `finish`, `finish-<n>m`, `<n>%`, `<n>m`.
    static let fillFromCanonicalText = """
        UPDATE messages SET
            marker_kind = CASE
                WHEN marker = 'finish' OR marker LIKE 'finish-%' THEN '\(beforeFinish)'
                WHEN marker LIKE '%\\%' ESCAPE '\\' THEN '\(percent)'
                ELSE '\(absolute)' END,
            marker_value = CASE
                WHEN marker = 'finish' THEN 0
                WHEN marker LIKE 'finish-%' THEN CAST(substr(marker, 8, length(marker) - 8) AS DOUBLE PRECISION)
                ELSE CAST(substr(marker, 1, length(marker) - 1) AS DOUBLE PRECISION) END
        WHERE marker_kind IS NULL
        """
}
