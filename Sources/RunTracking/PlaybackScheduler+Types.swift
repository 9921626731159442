extension PlaybackScheduler {
    /// A message waiting for its marker.
    public struct Message: Sendable, Equatable {
        /// Unique within a run; `playbackFinished` names it.
        public var id: String
        public var marker: DistanceMarker

        public init(id: String, marker: DistanceMarker) {
            self.id = id
            self.marker = marker
        }
    }

    /// What the host tells the scheduler. Every event carries the time (seconds on any steady
    /// clock), so the scheduler never reads a clock itself.
    public enum Event: Sendable, Equatable {
        /// The tracker's cumulative distance at `time`.
        case distanceUpdate(time: Double, meters: Double)
        /// The message `id` finished playing at `time`.
        case playbackFinished(id: String, time: Double)
        /// The runner paused the run: nothing new starts until `resume`.
        case pause(time: Double)
        case resume(time: Double)
        /// The run is over: every message not yet played plays now, in marker order.
        case runFinished(time: Double)
        /// Time passes without a new distance: the host's timer for `Answer.nextWakeUp` fired
        /// (the minimum gap after a message ended, or a marker fell due, between two fixes).
        case tick(time: Double)

        /// When the event happened.
        public var time: Double {
            switch self {
            case .distanceUpdate(let time, _), .playbackFinished(_, let time), .pause(let time), .resume(let time),
                .runFinished(let time), .tick(let time):
                return time
            }
        }
    }

    /// Why a message starts.
    public enum PlayReason: String, Sendable {
        /// It became due (marker minus lead) at this very event.
        case markerReached
        /// It was due earlier but waited: another message was playing, the minimum gap had
        /// not passed, the run was paused, or several markers were crossed at once.
        case catchingUp
        /// Its marker was never reached, but the run ended (or the planned distance was
        /// reached), and no message is ever dropped.
        case runEnded
    }

    /// What the scheduler asks the host to do.
    public enum Action: Sendable, Equatable {
        case play(id: String, reason: PlayReason)
    }

    /// The scheduler's answer to one event.
    public struct Answer: Sendable, Equatable {
        /// The message to start now, if any.
        public var action: Action?
        /// When to send a `tick` if no other event comes first: the minimum gap after a
        /// message ends then and a message is waiting for it, or the next marker falls due
        /// then at the current pace. Nil when no timer is needed; a later answer replaces the
        /// time, so the host keeps one timer, set to the latest.
        public var nextWakeUp: Double?

        public init(action: Action? = nil, nextWakeUp: Double? = nil) {
            self.action = action
            self.nextWakeUp = nextWakeUp
        }
    }

    /// Timing rules, with their defaults.
    public struct Configuration: Sendable, Equatable {
        /// A message becomes due this many seconds early, at the current pace, so that it can
        /// start as the runner reaches its marker (covering decision and audio start-up
        /// latency). Default 0 s.
        public var leadSeconds: Double
        /// Silence kept between two messages, so they do not run into each other. Default 3 s.
        public var minimumGapSeconds: Double
        /// The run's planned length in metres: relative markers (`50%`, `finish`,
        /// `finish-1km`) resolve against it, and reaching it ends the run for scheduling.
        public var plannedDistance: Double?
        /// Where the distance stops, when it does: with a course, its length, past which the
        /// course tracker's distance never goes. A marker past it is put at it, and reaching
        /// it ends the run for scheduling as the planned distance does. Without it, a planned
        /// distance a few metres longer than the course (a length rounded as it was typed, or
        /// the same course measured by another build, a few ulps apart) is never reached, and
        /// the `finish` messages wait for the runner to end the run by hand. Default nil.
        public var endDistance: Double?
        /// Time constant of the pace estimate used for the lead, seconds. Default 10 s.
        public var speedTimeConstant: Double
        /// Between distance updates, reckon the distance on at the current pace (for 1.5 usual
        /// longest update intervals at most) and ask to be woken when the next marker falls
        /// due: with a fix every 15 s at 6.5 m/s, a message then starts at its marker rather
        /// than up to 100 m past it. Intervals longer than 20 s are gaps, not usual. Default
        /// true.
        public var anticipatesNextUpdate: Bool

        public init(
            leadSeconds: Double = 0, minimumGapSeconds: Double = 3, plannedDistance: Double? = nil,
            speedTimeConstant: Double = 10, anticipatesNextUpdate: Bool = true, endDistance: Double? = nil
        ) {
            self.endDistance = endDistance
            self.anticipatesNextUpdate = anticipatesNextUpdate
            self.leadSeconds = leadSeconds
            self.minimumGapSeconds = minimumGapSeconds
            self.plannedDistance = plannedDistance
            self.speedTimeConstant = speedTimeConstant
        }

        /// This configuration for a run along `course`: the planned distance is the course's
        /// length unless one was given, and the run ends at the course's end (`endDistance`),
        /// or where one given ends it, if that is sooner.
        public func along(_ course: Course) -> Configuration {
            var configuration = self
            if configuration.plannedDistance == nil { configuration.plannedDistance = course.length }
            configuration.endDistance = min(configuration.endDistance ?? course.length, course.length)
            return configuration
        }
    }

    /// A message with its marker resolved to metres; the queue is sorted by metres, then by
    /// the order in which the messages were given.
    public struct Entry: Sendable, Equatable {
        public var message: Message
        public var meters: Double
        /// Position in the list given to `init`, the tie-breaker.
        public var order: Int
    }

    /// Everything the scheduler knows about the run so far.
    public struct Progress: Sendable, Equatable {
        /// Index in the queue of the next message to play; all before it have started.
        public var nextIndex = 0
        /// The message playing now.
        public var playing: String?
        /// When the last message finished.
        public var lastFinish: Double?
        /// Cumulative metres; never decreases.
        public var meters = 0.0
        /// Smoothed speed in m/s, for the lead.
        public var speed = 0.0
        /// The usual longest seconds between distance updates (gaps excluded), for reckoning
        /// ahead: the longest lately, sinking slowly towards shorter ones.
        public var updateInterval: Double?
        /// The latest time of any event.
        public var time: Double?
        /// The time of the latest distance update: speed is measured between updates only.
        public var updateTime: Double?
        /// Metres plus lead distance at the previous event: a message due by then and not yet
        /// playing is catching up. Finite before the first event (not -∞), so JSON holds it.
        public var previousReach = -Double.greatestFiniteMagnitude
    }

    /// Whether messages may start now.
    public enum Phase: Sendable, Equatable {
        case running
        /// The runner paused: nothing new starts until `resume`.
        case paused
        /// The run finished or reached its planned distance: everything left is due.
        case ended
    }

    /// The phase with the progress, the form in which the scheduler is saved. Pausing and
    /// ending keep the progress.
    public enum State: Sendable, Equatable {
        case running(Progress)
        case paused(Progress)
        /// The run finished or reached its planned distance: everything left is due.
        case ended(Progress)

        public var progress: Progress {
            switch self {
            case .running(let progress), .paused(let progress), .ended(let progress): return progress
            }
        }
    }
}

#if !hasFeature(Embedded)
extension PlaybackScheduler.Message: Codable {}
extension PlaybackScheduler.PlayReason: Codable {}
extension PlaybackScheduler.Action: Codable {}
extension PlaybackScheduler.Configuration: Codable {}
extension PlaybackScheduler.Entry: Codable {}
extension PlaybackScheduler.Progress: Codable {}
extension PlaybackScheduler.State: Codable {}
#endif
