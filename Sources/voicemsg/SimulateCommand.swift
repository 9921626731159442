import AudioPipeline
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RunTracking
import GPXReplay

struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Replay a GPX track to see exactly when each message would play.",
        discussion: """
            Reads each message's marker, sender and exact duration from the Opus files that \
            `encode` writes, replays the track's fixes through the distance tracker and the \
            playback scheduler, and prints one row per message: where its marker is, when and \
            where it started, when it ended, and how many metres past its marker the runner was: \
            by the tracker's distance (late m), and along the track's own points (path late m, \
            the true path when the GPX is a route or a clean track).
            A negative "late m" means the message started before its marker, by the scheduler's \
            lead. Relative markers (50%, halfway, finish, finish-1km) resolve against \
            --planned-distance; a message pinned to one is refused without it (exit 64), since \
            the track's length is not the plan: a run can end short of it or go past it.
            With --course, the run is replayed against the race's course (a GPX track or route): \
            the distance is the place along the course, the planned distance is the course's \
            length unless --planned-distance is given, and the output says where the runner left \
            the course and came back to it (a short cut, when further along).
            """)

    @Option(help: "The run to replay, as GPX 1.0 or 1.1.", completion: .file(extensions: ["gpx"]))
    var gpx: String

    @Argument(help: "Opus messages written by `voicemsg encode`.", completion: .file())
    var messages: [String]

    @Option(help: "The run's planned length, such as 10km or 21.1km; needed by relative markers (50%, finish, finish-1km).",
            transform: RunDistance.init(parsing:))
    var plannedDistance: RunDistance?

    @Option(help: "Pace for points without times (routes, some exports), such as 6:00/km.",
            transform: Pace.init(parsing:))
    var pace: Pace?

    @Option(help: "The race's course, as GPX: its track (segments joined) or else its route. Markers are then placed along it.",
            completion: .file(extensions: ["gpx"]))
    var course: String?

    @Flag(help: "Print the timeline as JSON on stdout.")
    var json = false

    @Option(help: "Write a plot of distance over time, with each message as a labelled span.", completion: .file(extensions: ["svg"]))
    var svg: String?

    @Option(help: "Write the run's audio timeline as a 48 kHz mono WAV.", completion: .file(extensions: ["wav"]))
    var mixdown: String?

    @Flag(help: "Keep the true silence between messages in the mixdown (default: silences are shortened to 2 s).")
    var mixdownRealTime = false

    func run() async throws {
        do {
            try simulate()
        } catch let error where error is AudioPipelineError || error is RunTrackingError || error is GPXError {
            printError("\(error)")
            throw ExitCode(ExitStatus.failure)
        }
    }

    private func simulate() throws {
        let loaded = try messages.map { try Self.loadMessage($0, withSamples: mixdown != nil) }
        // A clear error here, not a silent guess: the track's length is
        // what was run, not what was planned, and a 50% marker placed on it moves with it.
        // A course's length is what was planned.
        if plannedDistance == nil, course == nil, let relative = loaded.first(where: { $0.marker.isRelative }) {
            printError("\(relative.file): marker '\(relative.marker.canonical)' is relative to the run's length; give --planned-distance, such as --planned-distance 10km")
            throw ExitCode.validationFailure
        }
        let raceCourse = try course.map { try GPXReader.readCourse(contentsOfFile: $0) }
        let fixes = try GPXReader.read(contentsOfFile: gpx).fixes(pace: pace)
        let planned = plannedDistance?.meters ?? raceCourse?.length
        let timeline = try RunSimulator.simulate(
            fixes: fixes, messages: loaded,
            configuration: .init(scheduler: .init(plannedDistance: planned), course: raceCourse))

        if let svg {
            try AtomicFile.write(Array(RunTimelineSVG.render(timeline).utf8), to: svg)
        }
        if let mixdown {
            let samples = RunMixdown.render(timeline, messages: loaded, silence: mixdownRealTime ? .realTime : .default)
            try AtomicFile.write(to: mixdown) { temporary in
                try WAVWriter.write(samples, sampleRate: RunMixdown.sampleRate, to: temporary)
            }
        }
        if json {
            try JSONOutput.print([SimulationJSON(timeline)])
        } else {
            print(Self.table(timeline))
        }
    }

    /// Marker, sender and exact duration from an Opus file's tags and granule positions.
    static func loadMessage(_ path: String, withSamples: Bool) throws -> RunSimulator.Message {
        do {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw AudioPipelineError(.io, "cannot read the file")
            }
            let bytes = [UInt8](data)
            guard let container = OpusContainer(detecting: bytes) else {
                throw AudioPipelineError(.invalidContainer, "not an Opus file written by voicemsg encode")
            }
            let stream = try container.read(bytes)
            guard let markerText = stream.tags["DISTANCE_MARKER"] else {
                throw AudioPipelineError(.invalidMarker, "has no DISTANCE_MARKER tag; encode it with --marker")
            }
            let marker = try DistanceMarker(parsing: markerText)
            let samples = withSamples ? try OpusStreamDecoder.decode(stream) : nil
            return RunSimulator.Message(
                file: URL(filePath: path).lastPathComponent, sender: stream.tags["SENDER"] ?? stream.tags["ARTIST"],
                marker: marker, durationSeconds: stream.durationSeconds, samples: samples)
        } catch let error as AudioPipelineError {
            throw error.attributed(to: path)
        } catch let error as RunTrackingError {
            throw error.attributed(to: path)
        }
    }

    static func table(_ timeline: RunSimulator.Timeline) -> String {
        func clock(_ seconds: Double) -> String {
            let total = Int(seconds.rounded())
            return total >= 3600
                ? String(printf: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60)
                : String(printf: "%d:%02d", total / 60, total % 60)
        }
        let planned = timeline.plannedDistanceMeters.map { String(printf: "planned %.0f m", $0) } ?? "no planned distance"
        let versus = timeline.pathMeters > 0 ? String(printf: " (%+.1f%%)", (timeline.distanceMeters / timeline.pathMeters - 1) * 100) : ""
        var lines = ["run: \(String(printf: "%.0f", timeline.distanceMeters)) m in \(clock(timeline.durationSeconds)); "
            + "the track's points add up to \(String(printf: "%.0f", timeline.pathMeters)) m\(versus); \(planned)"]
        let header = ["file", "sender", "marker", "marker m", "start", "start m", "end", "late m", "path late m"]
        var rows = [header]
        // A message whose marker the run never reached is not late: it played when the run
        // ended, so its lateness would only measure how short the run fell.
        var notes: [String] = []
        for play in timeline.plays {
            // (A message still waiting for its turn when the run ended was reached: it is late.)
            let reached = play.reason != .runEnded || play.startMeters >= play.markerMeters
            rows.append([
                PrintableText.escaped(play.file), PrintableText.escaped(play.sender ?? "-"), PrintableText.escaped(play.marker), String(printf: "%.0f", play.markerMeters),
                clock(play.startSeconds), String(printf: "%.0f", play.startMeters), clock(play.endSeconds),
                reached ? String(printf: "%+.1f", play.latenessMeters) : "short*",
                reached ? String(printf: "%+.1f", play.pathLatenessMeters) : "short*",
            ])
            if !reached {
                notes.append("* \(PrintableText.escaped(play.file)): "
                    + String(printf: "the run ended at %.0f m, %.0f m short of its marker at %.0f m, so it played at the end of the run.",
                             play.startMeters, play.markerMeters - play.startMeters, play.markerMeters))
            }
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            lines.append(row.enumerated().map { column, cell in
                column >= 3 ? String(repeating: " ", count: widths[column] - cell.count) + cell
                    : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  "))
        }
        for missing in timeline.unplayed {
            lines.append("not played: \(missing.file) at \(missing.marker) (\(Int(missing.markerMeters)) m)")
        }
        if let course = timeline.course { lines += Self.courseLines(course, clock: clock) }
        lines.append("late m: metres past the marker when the message started, by the tracker's distance; "
            + "path late m: the same along the track's own points. Negative: it started early, by the scheduler's lead. "
            + "A recorded track's points carry its GPS jitter, which the tracker leaves out, so path late m grows along such "
            + "a run; on a route or a clean track the points are the true path.")
        lines += notes
        return lines.joined(separator: "\n")
    }
}

extension SimulateCommand {
    /// The course's length, and each time the runner left it and came back, in words.
    static func courseLines(_ course: RunSimulator.CourseSummary, clock: (Double) -> String) -> [String] {
        func place(_ meters: Double) -> String { String(printf: "%.2f km", meters / 1000) }
        var lines = ["course: \(String(printf: "%.0f", course.lengthMeters)) m; the distance is the place along it"]
        if course.excursions.isEmpty { lines.append("the runner stayed on the course") }
        if let way = course.wayToTheCourse, let away = course.startedAwayMeters {
            var line = "off the course from the start: the first fix was \(away < 10_000 ? String(printf: "%.0f m", away) : place(away)) from its start"
            if let seconds = way.rejoinedSeconds, let meters = way.rejoinedMeters {
                line += ", on it from \(place(meters)) (\(clock(seconds)))"
            } else {
                line += ", and the run never reached it: is the course the run's own?"
            }
            lines.append(line)
        }
        for excursion in course.departures {
            var line = "off the course: left it at \(place(excursion.leftMeters)) (\(clock(excursion.leftSeconds)))"
            if let seconds = excursion.rejoinedSeconds, let meters = excursion.rejoinedMeters, let skipped = excursion.skippedMeters {
                line += ", back on it at \(place(meters)) (\(clock(seconds)))"
                if skipped >= CourseTracker.shortCutMeters {
                    line += String(printf: ": a short cut, %.0f m of the course not run; the markers in it played at once", skipped)
                }
            } else {
                line += ", and never came back to it"
            }
            lines.append(line)
        }
        return lines
    }
}

/// The `--json` shape (docs/cli.md): the run's distances and duration, then each message's
/// start or why it never started, and with a course, where the runner left it and came back.
private struct SimulationJSON: Encodable {
    var distanceMeters: Double
    var pathDistanceMeters: Double
    var durationSeconds: Double
    var plannedDistanceMeters: Double?
    var plays: [RunSimulator.Play]
    var unplayed: [RunSimulator.Unplayed]
    var course: RunSimulator.CourseSummary?

    init(_ timeline: RunSimulator.Timeline) {
        distanceMeters = timeline.distanceMeters
        pathDistanceMeters = timeline.pathMeters
        durationSeconds = timeline.durationSeconds
        plannedDistanceMeters = timeline.plannedDistanceMeters
        plays = timeline.plays
        unplayed = timeline.unplayed
        course = timeline.course
    }
}
