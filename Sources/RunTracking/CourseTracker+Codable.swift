#if !hasFeature(Embedded)
// Decoded by hand, as `DistanceTracker` is, so that what a later version adds may be missing
// from what an earlier one saved: an app updated during a run carries on from where it was.
// Required: the course, the distance and the odometer; the rest starts afresh when missing, as
// after a stand (the place held, the speed to be learnt again).
extension CourseTracker: Codable {
    enum CodingKeys: String, CodingKey {
        case course, configuration, meters, isOffCourse, lateral, leftAt, odometer
        case filter, lastUsedTime, strayedFixes, straySince, beyondFixes, leftTime, nearFixes, nearMeters, isHolding, lateralVariance, pieceHint
        case nearSinceOdometer, startedAway
    }

    public init(from decoder: any Decoder) throws {
        let saved = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            course: try saved.decode(Course.self, forKey: .course),
            configuration: try saved.decodeIfPresent(Configuration.self, forKey: .configuration) ?? .init())
        meters = try saved.decode(Double.self, forKey: .meters)
        odometer = try saved.decode(DistanceTracker.self, forKey: .odometer)
        isOffCourse = try saved.decodeIfPresent(Bool.self, forKey: .isOffCourse) ?? false
        lateral = try saved.decodeIfPresent(Double.self, forKey: .lateral)
        leftAt = try saved.decodeIfPresent(Double.self, forKey: .leftAt)
        lastUsedTime = try saved.decodeIfPresent(Double.self, forKey: .lastUsedTime) ?? odometer.lastAcceptedFix?.time
        if let filter = try saved.decodeIfPresent(AlongCourseFilter.self, forKey: .filter) {
            self.filter = filter
        } else {
            self.filter.restart(
                at: meters, speed: 0, metersNoise: configuration.odometer.assumedAccuracy, speedNoise: Self.setOffSpeedNoise)
        }
        strayedFixes = try saved.decodeIfPresent(Int.self, forKey: .strayedFixes) ?? 0
        straySince = try saved.decodeIfPresent(Double.self, forKey: .straySince) ?? 0
        beyondFixes = try saved.decodeIfPresent(Int.self, forKey: .beyondFixes) ?? 0
        leftTime = try saved.decodeIfPresent(Double.self, forKey: .leftTime) ?? (lastUsedTime ?? 0)
        nearFixes = try saved.decodeIfPresent(Int.self, forKey: .nearFixes) ?? 0
        nearMeters = try saved.decodeIfPresent(Double.self, forKey: .nearMeters) ?? 0
        nearSinceOdometer = try saved.decodeIfPresent(Double.self, forKey: .nearSinceOdometer) ?? odometer.meters
        startedAway = try saved.decodeIfPresent(Double.self, forKey: .startedAway)
        isHolding = try saved.decodeIfPresent(Bool.self, forKey: .isHolding) ?? odometer.isStill
        lateralVariance = try saved.decodeIfPresent(Double.self, forKey: .lateralVariance) ?? lateralVariance
        pieceHint = try saved.decodeIfPresent(Int.self, forKey: .pieceHint) ?? 0
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(course, forKey: .course)
        try container.encode(configuration, forKey: .configuration)
        try container.encode(meters, forKey: .meters)
        try container.encode(isOffCourse, forKey: .isOffCourse)
        try container.encodeIfPresent(lateral, forKey: .lateral)
        try container.encodeIfPresent(leftAt, forKey: .leftAt)
        try container.encode(odometer, forKey: .odometer)
        try container.encode(filter, forKey: .filter)
        try container.encodeIfPresent(lastUsedTime, forKey: .lastUsedTime)
        try container.encode(strayedFixes, forKey: .strayedFixes)
        try container.encode(straySince, forKey: .straySince)
        try container.encode(beyondFixes, forKey: .beyondFixes)
        try container.encode(leftTime, forKey: .leftTime)
        try container.encode(nearFixes, forKey: .nearFixes)
        try container.encode(nearMeters, forKey: .nearMeters)
        try container.encode(nearSinceOdometer, forKey: .nearSinceOdometer)
        try container.encodeIfPresent(startedAway, forKey: .startedAway)
        try container.encode(isHolding, forKey: .isHolding)
        try container.encode(lateralVariance, forKey: .lateralVariance)
        try container.encode(pieceHint, forKey: .pieceHint)
    }
}
#endif
