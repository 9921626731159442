extension DistanceTracker {
    /// The tracker's limits, with defaults for every runner on a consumer phone or watch: a
    /// steep walk at 0.8 m/s to a fast run at 6.5 m/s, a fix every second to every 15.
    ///
    /// The defaults were chosen on the tracker corpus (`scripts/tracker-corpus.sh`): real
    /// tracks resampled, time-scaled and given Gauss–Markov noise, laps and switchbacks.
    /// docs/tracker.md gives the figures behind them and the commands that measure them.
    ///
    /// Two things are not settings but learnt from the fixes as they come, because they differ
    /// from device to device and from street to street: the Doppler speed's noise (bounded by
    /// `dopplerNoise` and `largestDopplerNoise`), and how fast the position's error wanders
    /// (see `learnWander` and `unwandered`, bounded by `assumedAccuracy`).
    public struct Configuration: Sendable, Equatable {
        /// Fixes that report a horizontal accuracy worse than this (metres) are ignored.
        /// Default 30 m: phones report 3 to 10 m outdoors, 10 to 25 m between tall buildings,
        /// and 30 m and more indoors or in tunnels, where the position is worth nothing.
        public var maximumAccuracy: Double
        /// The position noise assumed, as σ per axis in metres, when a fix reports no
        /// accuracy. Default 5 m, typical of a consumer receiver under open sky.
        public var assumedAccuracy: Double
        /// A fix whose implied speed from the last accepted fix is above this (m/s) is an
        /// outlier. Default 12 m/s: a sprinter's top speed. A 6.5 m/s runner's fixes a second
        /// apart, each a few metres off, imply up to about 10 m/s and must pass; real spikes
        /// imply 15 to 100 m/s.
        public var maximumSpeed: Double
        /// More time than this (seconds) between fixes is a gap: tunnel, auto-pause, the app
        /// suspended. The straight line across counts, and the filter restarts. Default 30 s,
        /// well above the intervals that watches' smart recording and phones in battery-saving
        /// modes use (1 to 15 s): were those fixes gaps, a gap shorter than the still circle
        /// would count nothing, and a walk with a fix every 10 to 15 s would lose a quarter to
        /// all of its distance.
        public var gapSeconds: Double
        /// The straight line across a gap counts only when its average speed is at most this
        /// (m/s). Default 7 m/s, a 2:23/km pace.
        public var maximumGapSpeed: Double
        /// White-acceleration noise density of the constant-velocity Kalman filter (m²/s³)
        /// for a runner at `fullAccelerationSpeed`. Lower is smoother: it follows less of the
        /// slow GPS wander, and rounds corners more. Default 1.0: responsive enough for
        /// corners at a run.
        public var accelerationNoise: Double
        /// Below this speed (m/s) the filter's acceleration noise shrinks with the square of
        /// the speed, to no less than a tenth: a walker turning a corner changes velocity
        /// far less than a runner, and a stiffer filter follows less of the wander that, at a
        /// walk, is as fast as the walker. Default 3 m/s.
        public var fullAccelerationSpeed: Double
        /// A stop begins when the Doppler speed of two fixes in a row, or else the filtered
        /// speed, is below this (m/s); no distance accrues while stopped. Default 0.5 m/s:
        /// the slowest walk, up a steep hill, is 0.8 m/s, and such a walker's speed, give or
        /// take its noise, often falls to 0.7 m/s. The filtered speed of such a
        /// walker still falls below 0.5 m/s when the fixes wander, so by filtered speed a stop
        /// also needs the fixes to have settled, to within 0.45 m/s × 15 s (see `hasSettled`).
        public var stillSpeed: Double
        /// A stop ends when two Doppler speeds in a row are above this (m/s); the distance
        /// those speeds say was run since the first of them counts. Default 0.7 m/s, below a
        /// slow walk, so that a walker setting off ends the stop.
        public var movingSpeed: Double
        /// A stop by Doppler speeds that ends within this many seconds of its start was no
        /// stop: all the metres the speeds say were run in it count, not only those since the
        /// runner set off. Default 20 s: a walker at 0.8 m/s whose phone's speed has σ 0.2
        /// m/s dips below `stillSpeed` twice in a row a dozen times in 4 hours, and lost 3 m
        /// each time (45 m behind on a 12 km walk); a traffic light, a drink or a tied lace
        /// takes longer, and positions stay within the still circle through it.
        public var briefStopSeconds: Double
        /// A stop also ends when the position leaves a circle of this radius (metres) around
        /// where the runner stopped; the straight line out of it then counts.
        /// Default 25 m: GPS wander of σ 5 m per axis leaves it about once an hour.
        public var stillRadius: Double
        /// When this many outliers in a row agree with each other, the reference before them
        /// was the wrong one: the tracker restarts at the first of them, counting the straight
        /// line there only when it is plausible. Default 3.
        public var maximumConsecutiveRejections: Int
        /// Without Doppler speed, distance is counted along chords between filtered
        /// positions, so sideways GPS wander cancels instead of adding up. A chord spans about
        /// `chordSeconds` at the current speed, and is never shorter than `shortestChord` nor
        /// longer than `longestChord` (metres). Defaults 8 s, 15 m and 25 m.
        ///
        /// A fixed 25 m chord spans half a minute at a walk and cuts the corners between; 15 m
        /// keeps real tracks within the tests' bound of their point-to-point sum at every pace
        /// (`RealTrackPaceTests`). At a run the wander (σ 3–5 m, correlated over tens of
        /// seconds) needs the longer chord to stay within the corpus's ±2%, and 25 m still
        /// turns with the streets.
        public var chordSeconds: Double
        public var shortestChord: Double
        public var longestChord: Double
        /// A turn sharper than this (degrees) between the chord and the current heading ends
        /// the chord early, so corners are not cut. Default 30°. A chord so ended counts as
        /// the arc over it (see `arcOverChord`): on a steady bend it spans up to twice this
        /// angle. Chords that run their full length are shortened by the wander the fixes show
        /// (see `unwandered`), at most by the spread `assumedAccuracy` allows.
        public var maximumTurn: Double
        /// The noise of the device's Doppler speed, σ per axis of the velocity (m/s). A speed is
        /// the length of a noisy velocity, so noise across the direction of travel lengthens it, by
        /// σ²/2v: +0.6% at 0.8 m/s for σ 0.1 m/s, +2.5% for σ 0.2 m/s. That bias is taken out
        /// before speeds are integrated, with the noise learnt from the speeds (see
        /// `largestDopplerNoise`), but while fixes come less than 5 s apart never less than this
        /// (see `independentSpeedSeconds`). Default 0.1 m/s, a phone's Doppler speed under open
        /// sky: with a fix every second, successive speeds share most of their error and show less
        /// than it. A device better than the floor is then counted a little short at a walk with
        /// dense fixes, and about right at a run (docs/tracker.md, "The rules in the sources").
        public var dopplerNoise: Double
        /// The Doppler noise is learnt from the speeds themselves (see `learnDopplerNoise`),
        /// never below `dopplerNoise` nor above this (m/s). Default 0.25 m/s: phones report
        /// 0.1 to 0.3 m/s under open sky; above that a runner's own changes of speed would
        /// pass for noise, and each 0.1 m/s too much counts a walk at 1 m/s 0.5 to 1% short.
        public var largestDopplerNoise: Double

        public init(
            maximumAccuracy: Double = 30, assumedAccuracy: Double = 5, maximumSpeed: Double = 12,
            gapSeconds: Double = 30, maximumGapSpeed: Double = 7, accelerationNoise: Double = 1.0,
            fullAccelerationSpeed: Double = 3, stillSpeed: Double = 0.5, movingSpeed: Double = 0.7,
            briefStopSeconds: Double = 20,
            stillRadius: Double = 25, maximumConsecutiveRejections: Int = 3, chordSeconds: Double = 8,
            shortestChord: Double = 15, longestChord: Double = 25, maximumTurn: Double = 30, dopplerNoise: Double = 0.1,
            largestDopplerNoise: Double = 0.25
        ) {
            self.maximumAccuracy = maximumAccuracy
            self.assumedAccuracy = assumedAccuracy
            self.maximumSpeed = maximumSpeed
            self.gapSeconds = gapSeconds
            self.maximumGapSpeed = maximumGapSpeed
            self.accelerationNoise = accelerationNoise
            self.fullAccelerationSpeed = fullAccelerationSpeed
            self.stillSpeed = stillSpeed
            self.movingSpeed = movingSpeed
            self.briefStopSeconds = briefStopSeconds
            self.stillRadius = stillRadius
            self.maximumConsecutiveRejections = maximumConsecutiveRejections
            self.chordSeconds = chordSeconds
            self.shortestChord = shortestChord
            self.longestChord = longestChord
            self.maximumTurn = maximumTurn
            self.dopplerNoise = dopplerNoise
            self.largestDopplerNoise = largestDopplerNoise
        }
    }
}

#if !hasFeature(Embedded)
extension DistanceTracker.Configuration: Codable {}
#endif
