/// The tracker's test corpus (issue 12): every pace from a steep walk to a fast run, at every
/// fix interval, on real streets, track laps and switchbacks, under open sky and in urban
/// canyons, with walk breaks, a traffic light and stale fixes after a wake-up.
enum TrackerCorpus {
    static let streets = ["strava-run-gap.gpx", "strava-run-with-pauses.gpx", "garmin-run-smart-recording.gpx"]
    static let paces = [0.8, 1.2, 2.5, 3.5, 5.0, 6.5]
    static let intervals: [CorpusVariant.Interval] = [.steady(1), .steady(2), .steady(5), .steady(10), .steady(15), .varying(1...15)]

    // Open sky: σ 3 to 5 m; urban canyon: σ 10 to 15 m, wandering more slowly.
    static func openSky(_ index: Int) -> CorpusVariant.Noise { .init(sigma: [3, 4, 5][index % 3], timeConstant: 30) }
    static func canyon(_ index: Int) -> CorpusVariant.Noise { .init(sigma: [10, 12, 15][index % 3], timeConstant: 60) }
    /// A phone's Doppler speed, σ 0.05 to 0.2 m/s per axis.
    static func phone(_ index: Int) -> CorpusVariant.Device {
        .init(reportsAccuracy: true, speedSigma: [0.05, 0.1, 0.15, 0.2][index % 4])
    }

    static let variants: [CorpusVariant] = {
        var variants: [CorpusVariant] = []
        var seed: UInt64 = 100
        func add(
            _ route: CorpusVariant.Route, _ movement: CorpusVariant.Movement, _ interval: CorpusVariant.Interval,
            _ noise: CorpusVariant.Noise?, _ device: CorpusVariant.Device, stale: Bool = false
        ) {
            seed += 1
            variants.append(CorpusVariant(
                route: route, movement: movement, interval: interval, noise: noise, device: device, staleFixes: stale, seed: seed))
        }
        let positionOnly = CorpusVariant.Device.gpx
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
            add(street(i), .steady(pace), interval, nil, positionOnly)
        }
        for (i, (pace, interval)) in zip([0.8, 1.2, 2.5, 3.5, 5.0, 6.5], [CorpusVariant.Interval.steady(1), .steady(5), .steady(2), .steady(10), .steady(1), .steady(5)]).enumerated() {
            add(street(i), .steady(pace), interval, openSky(i), positionOnly)
        }
        add(.laps(10), .steady(3.5), .steady(1), openSky(1), positionOnly)
        add(.laps(10), .steady(1.2), .steady(2), openSky(2), positionOnly)
        add(.switchbacks(40), .steady(2.5), .steady(1), openSky(0), positionOnly)
        add(.switchbacks(40), .steady(1.2), .steady(1), nil, positionOnly)
        add(street(0), .walkBreaks(run: 3.0, walk: 1.0), .steady(2), openSky(1), positionOnly)
        add(street(1), .trafficLight(2.5), .steady(1), openSky(2), positionOnly)
        return variants
    }()

    /// More of the grid than the corpus holds, with other seeds, to check that a change which
    /// helps the corpus is not fitted to its draws: position-only fixes on the three streets
    /// (1.2, 3.0 and 5.0 m/s, every 1, 2 and 5 s, σ 3 to 5 m), walkers with a phone (0.8 and
    /// 1.2 m/s, every 5 to 15 s, every speed noise), and clean fixes from positions alone on
    /// streets, laps and switchbacks at every pace and steady interval. Not a test: sparse
    /// fixes on a switchback at a run cannot be counted from positions (see the README).
    /// `WIDER=1 scripts/tracker-corpus.sh` runs it.
    static let wider: [CorpusVariant] = {
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
