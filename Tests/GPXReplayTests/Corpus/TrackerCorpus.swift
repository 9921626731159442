/// The tracker's test corpus: every pace from a steep walk to a fast run, at every
/// fix interval, on real streets, track laps and switchbacks, under open sky and in urban
/// canyons, with walk breaks, a traffic light and stale fixes after a wake-up.
enum TrackerCorpus {
    static let streets = ["strava-run-gap.gpx", "strava-run-with-pauses.gpx", "garmin-run-smart-recording.gpx"]
    static let paces = [0.8, 1.2, 2.5, 3.5, 5.0, 6.5]
    static let intervals: [CorpusVariant.Interval] = [.steady(1), .steady(2), .steady(5), .steady(10), .steady(15), .varying(1...15)]

    /// The corpus is split in two, by seed and by noise family (a family is a whole noise
    /// model, so none is in both): settings are chosen on the tuning set alone, and a change
    /// is kept only if the held-out set does not get worse. Both sets hold the same grid of
    /// routes, paces, intervals and devices; only the noise models and the seeds differ.
    enum Split: String, CaseIterable, Sendable {
        case tuning
        case heldOut = "held-out"
    }

    /// One set's noise families, and the seed its runs count up from.
    struct Families: Sendable {
        /// Open sky, three σ; an urban canyon, three σ, wandering more slowly.
        var openSky: [CorpusVariant.Noise]
        var canyon: [CorpusVariant.Noise]
        /// What "no noise added" stands for: nothing in the tuning set, a good receiver's faint
        /// wander in the held-out set.
        var clean: CorpusVariant.Noise?
        /// A phone's Doppler speed: σ per axis (m/s).
        var speedSigmas: [Double]
        /// The trail runs: Gauss–Markov error with white error of its own at every fix, and
        /// three 160 m spikes.
        var trail: [CorpusVariant.Noise]
        var firstSeed: UInt64
    }

    static func families(_ split: Split) -> Families {
        func trail(_ sigma: Double, _ tau: Double, _ white: Double) -> CorpusVariant.Noise {
            .init(sigma: sigma, timeConstant: tau, white: white, spikes: 3, spikeMeters: 160...160)
        }
        switch split {
        case .tuning:
            return Families(
                openSky: [3, 4, 5].map { .init(sigma: $0, timeConstant: 30) },
                canyon: [10, 12, 15].map { .init(sigma: $0, timeConstant: 60) },
                clean: nil, speedSigmas: [0.05, 0.1, 0.15, 0.2],
                trail: [trail(2, 10, 3), trail(5, 30, 0.5), trail(8, 120, 1), trail(3, 90, 2), trail(6, 20, 1.5), trail(8, 10, 0.5)],
                firstSeed: 100)
        case .heldOut:
            // The run that showed the tracker losing distance (σ 4 m, τ 60 s, 1.5 m white) is
            // held out, with five others across the same ranges.
            return Families(
                openSky: [3.5, 4.5, 5.5].map { .init(sigma: $0, timeConstant: 45) },
                canyon: [9, 11, 14].map { .init(sigma: $0, timeConstant: 90) },
                clean: .init(sigma: 1, timeConstant: 20), speedSigmas: [0.07, 0.12, 0.17, 0.22],
                trail: [trail(4, 60, 1.5), trail(2, 120, 0.5), trail(7, 15, 2.5), trail(5, 45, 3), trail(3, 10, 1), trail(8, 60, 2)],
                firstSeed: 50_000)
        }
    }

    /// The tuning set: what the tests hold the tracker to, and what its settings are chosen on.
    static let variants: [CorpusVariant] = variants(.tuning)
    /// The held-out set: the same grid with other noise models and other seeds.
    static let heldOut: [CorpusVariant] = variants(.heldOut)

    static func variants(_ split: Split) -> [CorpusVariant] {
        let families = families(split)
        func openSky(_ index: Int) -> CorpusVariant.Noise { families.openSky[index % families.openSky.count] }
        func canyon(_ index: Int) -> CorpusVariant.Noise { families.canyon[index % families.canyon.count] }
        func phone(_ index: Int) -> CorpusVariant.Device {
            .init(reportsAccuracy: true, speedSigma: families.speedSigmas[index % families.speedSigmas.count])
        }
        var variants: [CorpusVariant] = []
        var seed = families.firstSeed
        func add(
            _ route: CorpusVariant.Route, _ movement: CorpusVariant.Movement, _ interval: CorpusVariant.Interval,
            _ noise: CorpusVariant.Noise?, _ device: CorpusVariant.Device, stale: Bool = false
        ) {
            seed += 1
            variants.append(CorpusVariant(
                route: route, movement: movement, interval: interval, noise: noise, device: device, staleFixes: stale, seed: seed))
        }
        let positionOnly = CorpusVariant.Device.gpx
        let clean = families.clean
        func street(_ index: Int) -> CorpusVariant.Route { .real(streets[index % streets.count]) }
        // Every pace at every interval on real streets, open sky, as a phone reports.
        for (i, pace) in paces.enumerated() {
            for (j, interval) in intervals.enumerated() {
                add(street(i + j), .steady(pace), interval, openSky(i + j), phone(i + 2 * j))
            }
        }
        // Urban canyon.
        for (i, (pace, interval)) in zip(paces, [CorpusVariant.Interval.steady(1), .steady(5), .steady(2), .varying(1...15), .steady(10), .steady(1)]).enumerated() {
            add(street(i), .steady(pace), interval, canyon(i), phone(i))
        }
        // 400 m track laps, and switchbacks.
        for (i, (pace, interval)) in zip([0.8, 2.5, 3.5, 5.0, 6.5, 1.2], [CorpusVariant.Interval.steady(1), .steady(5), .steady(15), .steady(2), .varying(1...15), .steady(10)]).enumerated() {
            add(.laps(10), .steady(pace), interval, openSky(i), phone(i))
        }
        for (i, (pace, interval)) in zip([0.8, 1.2, 2.5, 0.8, 3.5, 1.2], [CorpusVariant.Interval.steady(1), .steady(5), .steady(2), .steady(15), .steady(1), .varying(1...15)]).enumerated() {
            add(.switchbacks(40), .steady(pace), interval, openSky(i), phone(i))
        }
        // Walk breaks, a traffic light, stale fixes after a wake-up.
        for (i, interval) in [CorpusVariant.Interval.steady(1), .steady(5), .steady(10), .varying(1...15)].enumerated() {
            add(street(i), .walkBreaks(run: 3.0, walk: 1.0), interval, openSky(i), phone(i))
        }
        for (i, interval) in [CorpusVariant.Interval.steady(1), .steady(5), .steady(15)].enumerated() {
            add(street(i), .trafficLight(3.0), interval, openSky(i), phone(i))
        }
        for (i, interval) in [CorpusVariant.Interval.steady(1), .steady(5), .steady(10)].enumerated() {
            add(street(i), .steady([3.0, 1.2, 5.0][i]), interval, openSky(i), phone(i), stale: true)
        }
        // From devices that report the position only (most GPX files): without added noise,
        // and under open sky, on streets, laps and switchbacks, with walk breaks and a stop.
        for (i, (pace, interval)) in zip([0.8, 2.5, 6.5, 1.2, 3.5, 5.0], [CorpusVariant.Interval.steady(15), .steady(1), .steady(5), .steady(10), .varying(1...15), .steady(2)]).enumerated() {
            add(street(i), .steady(pace), interval, clean, positionOnly)
        }
        for (i, (pace, interval)) in zip([0.8, 1.2, 2.5, 3.5, 5.0, 6.5], [CorpusVariant.Interval.steady(1), .steady(5), .steady(2), .steady(10), .steady(1), .steady(5)]).enumerated() {
            add(street(i), .steady(pace), interval, openSky(i), positionOnly)
        }
        add(.laps(10), .steady(3.5), .steady(1), openSky(1), positionOnly)
        add(.laps(10), .steady(1.2), .steady(2), openSky(2), positionOnly)
        add(.switchbacks(40), .steady(2.5), .steady(1), openSky(0), positionOnly)
        add(.switchbacks(40), .steady(1.2), .steady(1), clean, positionOnly)
        add(street(0), .walkBreaks(run: 3.0, walk: 1.0), .steady(2), openSky(1), positionOnly)
        add(street(1), .trafficLight(2.5), .steady(1), openSky(2), positionOnly)
        // A trail run from positions alone: 8.2 km at about 3 m/s with a 5-minute stand,
        // under Gauss–Markov error with white error on top, at 1 Hz and every 5 s.
        for noise in families.trail {
            for seconds in [1.0, 5] {
                add(.stretch("strava-run-with-pauses.gpx", meters: 8200), .swayingWithStand(3.0), .steady(seconds), noise, positionOnly)
            }
        }
        return variants
    }

    /// The course runs: the trail runs' true path known as the race's course, each shape (see
    /// `CourseShape`) under each of the set's trail noise models at 1 Hz and every 5 s, from
    /// positions alone; and the route again as a phone reports it (accuracy and Doppler speed).
    /// The laps are 20 laps of a 400 m track; then the route again walked in breaks, and the laps
    /// begun in the start's pen. Kept apart
    /// from `variants`, so that the figures of the runs without a course stay as they are.
    static func courseVariants(_ split: Split) -> [CorpusVariant] {
        let families = families(split)
        var variants: [CorpusVariant] = []
        var seed = families.firstSeed + 10_000
        let trail = CorpusVariant.Route.stretch("strava-run-with-pauses.gpx", meters: 8200)
        for shape in CourseShape.allCases where shape != .pen {
            for (index, noise) in families.trail.enumerated() {
                for seconds in [1.0, 5] {
                    seed += 1
                    variants.append(CorpusVariant(
                        route: shape == .laps ? .laps(20) : trail, movement: .swayingWithStand(3.0), interval: .steady(seconds),
                        noise: noise, device: .gpx, seed: seed, course: shape))
                    guard shape == .route else { continue }
                    seed += 1
                    let phone = CorpusVariant.Device(reportsAccuracy: true, speedSigma: families.speedSigmas[index % families.speedSigmas.count])
                    variants.append(CorpusVariant(
                        route: trail, movement: .swayingWithStand(3.0), interval: .steady(seconds),
                        noise: noise, device: phone, seed: seed, course: shape))
                }
            }
        }
        // Walkers, who never stand: running 4 minutes at 3 m/s and walking one at 1 m/s, so
        // that a rule which finds a stand from slow progress along the course shows what it
        // costs a runner who is only slow.
        for noise in families.trail {
            for seconds in [1.0, 5] {
                seed += 1
                variants.append(CorpusVariant(
                    route: trail, movement: .walkBreaks(run: 3.0, walk: 1.0), interval: .steady(seconds),
                    noise: noise, device: .gpx, seed: seed, course: .route))
            }
        }
        // Start pressed in the start's pen, after the rest so that their seeds stay as they were.
        for noise in families.trail {
            for seconds in [1.0, 5] {
                seed += 1
                variants.append(CorpusVariant(
                    route: .laps(20), movement: .swayingWithStand(3.0), interval: .steady(seconds),
                    noise: noise, device: .gpx, seed: seed, course: .pen))
            }
        }
        return variants
    }

    /// More of the grid than the corpus holds, with the tuning set's noise and other seeds, to check that a change which
    /// helps the corpus is not fitted to its draws: position-only fixes on the three streets
    /// (1.2, 3.0 and 5.0 m/s, every 1, 2 and 5 s, σ 3 to 5 m), walkers with a phone (0.8 and
    /// 1.2 m/s, every 5 to 15 s, every speed noise), and clean fixes from positions alone on
    /// streets, laps and switchbacks at every pace and steady interval. Not a test: sparse
    /// fixes on a switchback at a run cannot be counted from positions (see the README).
    /// `WIDER=1 scripts/tracker-corpus.sh` runs it.
    static let wider: [CorpusVariant] = {
        let tuning = families(.tuning)
        func openSky(_ index: Int) -> CorpusVariant.Noise { tuning.openSky[index % tuning.openSky.count] }
        func phone(_ index: Int) -> CorpusVariant.Device {
            .init(reportsAccuracy: true, speedSigma: tuning.speedSigmas[index % tuning.speedSigmas.count])
        }
        var variants: [CorpusVariant] = []
        var seed: UInt64 = 1000
        func add(_ route: CorpusVariant.Route, _ speed: Double, _ seconds: Double, _ noise: CorpusVariant.Noise?, _ device: CorpusVariant.Device) {
            seed += 1
            variants.append(CorpusVariant(
                route: route, movement: .steady(speed), interval: .steady(seconds), noise: noise, device: device, seed: seed))
        }
        for file in streets {
            for speed in [1.2, 3.0, 5.0] {
                for seconds in [1.0, 2, 5] { for index in 0..<3 { add(.real(file), speed, seconds, openSky(index), .gpx) } }
            }
            for speed in [0.8, 1.2] {
                for seconds in [5.0, 10, 15] { for index in 0..<4 { add(.real(file), speed, seconds, openSky(index), phone(index)) } }
            }
        }
        let routes: [CorpusVariant.Route] = streets.map { .real($0) } + [.laps(10), .switchbacks(40)]
        for route in routes {
            for speed in paces { for seconds in [1.0, 2, 5, 10, 15] { add(route, speed, seconds, nil, .gpx) } }
        }
        return variants
    }()

    /// The real tracks as recorded (no noise added), at every pace and interval.
    static let realTracks: [RealTrackVariant] = {
        var variants: [RealTrackVariant] = []
        for file in streets {
            for speed in [0.8, 1.2, 2.5, 4.0, 6.5] {
                for interval in intervals { variants.append(RealTrackVariant(file: file, speed: speed, interval: interval)) }
            }
        }
        return variants
    }()
}
