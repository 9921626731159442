import Foundation
import Testing
import TestSupport
import RunTracking

/// The example of RunTracking's integration article (the DocC catalogue's
/// IntegratingRunTracking.md), compiled and run. The code between the `Article` comments is the
/// article's code block, word for word; the last test checks that.
struct IntegrationArticleExampleTests {
    @Test func theExampleRunsAFiveKilometreRunWithASaveAndRestore() throws {
        // Article begin
        /// What the app keeps for a run, and saves when the system suspends it.
        struct Run: Codable {
            var tracker = DistanceTracker()
            var scheduler: PlaybackScheduler
            /// The one timer the app keeps: when to send the scheduler a `tick`.
            var wakeUp: Double?
        }

        var run = Run(scheduler: try PlaybackScheduler(
            messages: [
                .init(id: "anna", marker: try DistanceMarker(parsing: "1km")),
                .init(id: "ben", marker: try DistanceMarker(parsing: "halfway")),
                .init(id: "cleo", marker: .finish),
            ],
            configuration: .init(plannedDistance: 5_000)))
        var playing: String?

        /// Does what the scheduler answers: starts a message, and sets the timer.
        func obey(_ answer: PlaybackScheduler.Answer) {
            if case .play(let id, _) = answer.action { playing = id }  // start its audio here
            run.wakeUp = answer.nextWakeUp
        }

        /// Each location update, with the fix's own time in seconds on any steady clock.
        func locationUpdated(_ fix: GPSFix) {
            let reading = run.tracker.update(with: fix)  // reading.meters, .speed, .pace
            obey(run.scheduler.handle(.distanceUpdate(time: reading.time, meters: reading.meters)))
        }

        /// The player finished the message; the timer fired; the runner pressed stop.
        func playbackFinished(at time: Double) {
            if let id = playing { obey(run.scheduler.handle(.playbackFinished(id: id, time: time))) }
            playing = nil
        }
        func timerFired(at time: Double) { obey(run.scheduler.handle(.tick(time: time))) }
        func runStopped(at time: Double) { obey(run.scheduler.handle(.runFinished(time: time))) }

        /// The runner pressed pause, then carried on: the distance stands still, and nothing starts.
        func runPaused(at time: Double) {
            run.tracker.pause()
            obey(run.scheduler.handle(.pause(time: time)))
        }
        func runResumed(at time: Double) {
            run.tracker.resume()
            obey(run.scheduler.handle(.resume(time: time)))
        }

        /// Suspended, then relaunched: the run carries on exactly where it was.
        func saveAndRestore() throws {
            let saved = try JSONEncoder().encode(run)
            run = try JSONDecoder().decode(Run.self, from: saved)
        }
        // Article end

        // Drive it: due north at 3 m/s, a fix a second, each message playing 6 s, the app
        // suspended and relaunched at 2.5 km.
        var started: [String] = []
        var playingSince = 0.0
        /// Notes a message that has just started, and where the runner really was then.
        func noteStart(at time: Double) {
            guard let id = playing, started.last != id else { return }
            started.append(id)
            playingSince = time
            // Started within 15 m of its marker, measured along the (straight, clean) path.
            let marker = run.scheduler.queue.first { $0.message.id == id }!.meters
            let truth = Geodesic.distance(fromLatitude: 48, longitude: 11, toLatitude: 48 + time * 3 / 111_200, longitude: 11)
            #expect(abs(truth - marker) < 15, "\(id) at \(truth) m")
        }
        for second in 0...1_700 {
            let time = Double(second)
            if playing != nil, time >= playingSince + 6 {
                let end = playingSince + 6
                playbackFinished(at: end)
                noteStart(at: end)
            }
            if let wakeUp = run.wakeUp, wakeUp <= time {
                timerFired(at: wakeUp)
                noteStart(at: wakeUp)
            }
            if second == 833 { try saveAndRestore() }
            locationUpdated(GPSFix(
                time: time, latitude: 48 + time * 3 / 111_200, longitude: 11, horizontalAccuracy: 5, speed: 3))
            noteStart(at: time)
        }
        runStopped(at: 1_700)
        #expect(started == ["anna", "ben", "cleo"])
        let length = Geodesic.distance(fromLatitude: 48, longitude: 11, toLatitude: 48 + 1_700 * 3 / 111_200, longitude: 11)
        #expect(abs(run.tracker.meters - length) < length * 0.01)
    }

    @Test func theArticleShowsThisCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let block = try #require(try articleBlock(inTestFile: #filePath, indentation: 8))
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/RunTracking/RunTracking.docc/IntegratingRunTracking.md"), encoding: .utf8)
        #expect(article.contains(block), "the integration article's example differs from this test's code")
    }
}
