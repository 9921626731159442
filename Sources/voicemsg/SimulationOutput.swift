import AudioPipeline
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import GPXReplay
import RunTracking

// What `voicemsg simulate` writes besides its table and JSON: the SVG plot and the audio
// mixdown. Only the command line needs them, so they live here, in one file.


/// Draws a simulated run as SVG: tracked distance over time, and each message as a labelled
/// span from its start to its end at the distance where it started, with a dashed line at
/// its marker.
enum RunTimelineSVG {
    static func render(_ timeline: RunSimulator.Timeline, width: Double = 960, height: Double = 480) -> String {
        let left = 70.0, right = 20.0, top = 20.0, bottom = 50.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let endSeconds = max(timeline.durationSeconds, timeline.plays.map(\.endSeconds).max() ?? 0, 1)
        let maxMeters = max(timeline.distanceMeters, timeline.plays.map(\.markerMeters).max() ?? 0, 1) * 1.05
        func x(_ seconds: Double) -> Double { left + seconds / endSeconds * plotWidth }
        func y(_ meters: Double) -> Double { top + plotHeight - meters / maxMeters * plotHeight }
        func f(_ value: Double) -> String { String(printf: "%.1f", value) }

        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(f(width))" height="\(f(height))" \
            viewBox="0 0 \(f(width)) \(f(height))" font-family="sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="white"/>
            <line x1="\(f(left))" y1="\(f(top + plotHeight))" x2="\(f(left + plotWidth))" y2="\(f(top + plotHeight))" stroke="black"/>
            <line x1="\(f(left))" y1="\(f(top))" x2="\(f(left))" y2="\(f(top + plotHeight))" stroke="black"/>
            <text x="\(f(left + plotWidth / 2))" y="\(f(height - 10))" text-anchor="middle">time (min)</text>
            <text x="15" y="\(f(top + plotHeight / 2))" transform="rotate(-90 15 \(f(top + plotHeight / 2)))" text-anchor="middle">distance (km)</text>

            """
        for step in axisSteps(max: endSeconds / 60) {
            svg += "<text x=\"\(f(x(step * 60)))\" y=\"\(f(top + plotHeight + 15))\" text-anchor=\"middle\">\(label(step))</text>\n"
        }
        for step in axisSteps(max: maxMeters / 1000) {
            svg += "<text x=\"\(f(left - 6))\" y=\"\(f(y(step * 1000) + 4))\" text-anchor=\"end\">\(label(step))</text>\n"
        }
        // At most ~2000 vertices: plenty for a plot, small for a marathon.
        let stride = max(1, timeline.distance.count / 2000)
        var points: [String] = []
        for (index, sample) in timeline.distance.enumerated() where index % stride == 0 || index == timeline.distance.count - 1 {
            points.append("\(f(x(sample.seconds))),\(f(y(sample.meters)))")
        }
        // Off the course: a grey band over the time away, named where it is left and rejoined.
        for excursion in timeline.course?.excursions ?? [] {
            let end = excursion.rejoinedSeconds ?? timeline.durationSeconds
            let text: String
            if excursion == timeline.course?.wayToTheCourse {
                text = excursion.rejoinedSeconds == nil ? "off course from the start, never on it" : "off course from the start"
            } else {
                let skipped = excursion.skippedMeters.map { $0 >= CourseTracker.shortCutMeters ? String(printf: ", short cut of %.0f m", $0) : "" } ?? ", not back"
                text = escape(String(printf: "off course at %.2f km", excursion.leftMeters / 1000) + skipped)
            }
            svg += """
                <rect x="\(f(x(excursion.leftSeconds)))" y="\(f(top))" width="\(f(max(2, x(end) - x(excursion.leftSeconds))))" height="\(f(plotHeight))" fill="#7f7f7f" fill-opacity="0.2"><title>\(text)</title></rect>
                <text x="\(f(x(excursion.leftSeconds) + 2))" y="\(f(top + plotHeight - 6))" fill="#555555">\(text)</text>

                """
        }
        svg += "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"\(points.joined(separator: " "))\"/>\n"
        var placed: [LabelBox] = []
        for (index, play) in timeline.plays.enumerated() {
            let color = ["#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2"][index % 6]
            let spanY = y(play.startMeters)
            let text = "\(play.sender ?? play.file) · \(play.marker)"
            let name = escape(text)
            let box = LabelBox.place(
                text, nearX: x(play.startSeconds), baseline: spanY - 8,
                within: (left: 2, right: width - 2, top: top + 2), avoiding: placed)
            placed.append(box)
            svg += """
                <line x1="\(f(left))" y1="\(f(y(play.markerMeters)))" x2="\(f(left + plotWidth))" y2="\(f(y(play.markerMeters)))" stroke="\(color)" stroke-dasharray="4 4" stroke-width="0.7"/>
                <rect x="\(f(x(play.startSeconds)))" y="\(f(spanY - 5))" width="\(f(max(2, x(play.endSeconds) - x(play.startSeconds))))" height="10" fill="\(color)" fill-opacity="0.7"><title>\(name): \(f(play.startSeconds)) s to \(f(play.endSeconds)) s, \(f(play.latenessMeters)) m late</title></rect>
                <text x="\(f(box.x))" y="\(f(box.baseline))" fill="\(color)">\(name)</text>

                """
        }
        svg += "</svg>\n"
        return svg
    }

    private static func axisSteps(max: Double) -> [Double] {
        let rough = max / 6
        let magnitude = pow(10, floor(log10(Swift.max(rough, 1e-9))))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? magnitude * 10
        return Swift.stride(from: 0, through: max, by: step).map { $0 }
    }

    private static func label(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(printf: "%g", value)
    }

    private static func escape(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;")
            .replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
    }
}

/// Where a message's label goes: beside its span, pulled back inside the plot when it would
/// run off the right edge, and moved up a line at a time past labels already placed, so that
/// every label shows in full and none covers another.
struct LabelBox: Equatable {
    var x: Double
    var baseline: Double
    var width: Double

    /// 11 px sans-serif averages about 0.55 em a character; 0.6 em leaves room for wide ones.
    static let characterWidth = 6.6
    static let lineHeight = 13.0

    var top: Double { baseline - Self.lineHeight + 2 }
    var bottom: Double { baseline + 3 }

    /// Whether the two boxes share any point, or come closer than `margin` pixels.
    func overlaps(_ other: LabelBox, margin: Double = 0) -> Bool {
        x < other.x + other.width + margin && other.x < x + width + margin
            && top < other.bottom + margin && other.top < bottom + margin
    }

    /// Labels are placed a pixel apart: boxes that only touch can overlap once the SVG
    /// rounds their positions to a tenth of a pixel.
    static let gap = 1.0

    static func place(
        _ text: String, nearX: Double, baseline: Double,
        within bounds: (left: Double, right: Double, top: Double), avoiding placed: [LabelBox]
    ) -> LabelBox {
        let width = Double(text.count) * characterWidth
        let x = max(bounds.left, min(nearX, bounds.right - width))
        var box = LabelBox(x: x, baseline: max(baseline, bounds.top + lineHeight), width: width)
        // Up first, where the plot is empty above a rising line; down once the top is reached.
        var step = -lineHeight
        while let blocker = placed.first(where: { box.overlaps($0, margin: gap) }) {
            if step < 0, box.baseline + step < bounds.top + lineHeight {
                step = lineHeight
                box.baseline = blocker.bottom + lineHeight - 2 + gap
            } else {
                box.baseline += step
            }
        }
        return box
    }
}

/// The run's audio timeline: every message's samples placed at its start time in one mono
/// 48 kHz buffer.
///
/// **Silence between messages.** A run is mostly silence: an hour at 48 kHz is 173 million
/// samples (330 MB as 16-bit WAV) for perhaps two minutes of messages. So by default
/// (`.compressed`) every silence longer than `maximumGapSeconds` — before the first message
/// and between two — is shortened to that length, which gives a file you can listen through
/// in minutes; the timeline (table, JSON, SVG) keeps the true times. `.realTime` keeps true
/// digital silence (exact zeros) so each message starts at its exact run time, for lining up
/// with a video of the run. Either way nothing is resampled, faded or mixed: messages never
/// overlap, so each sample is copied as it is. A message given without samples is
/// represented by silence of its duration.
enum RunMixdown {
    enum Silence: Sendable, Equatable {
        /// True silence: each message at its exact start time.
        case realTime
        /// Silences longer than this many seconds are shortened to it.
        case compressed(maximumGapSeconds: Double)

        /// The default: 2 s between messages.
        static let `default` = Silence.compressed(maximumGapSeconds: 2)
    }

    /// Opus decodes at 48 kHz, and the mixdown keeps the messages as decoded.
    static let sampleRate = OpusStream.sampleRate

    /// Samples of the mixdown; `messages` are those given to `RunSimulator.simulate`, matched
    /// to the plays by file.
    static func render(
        _ timeline: RunSimulator.Timeline, messages: [RunSimulator.Message], silence: Silence = .default
    ) -> [Float] {
        var byFile: [String: RunSimulator.Message] = [:]
        for message in messages { byFile[message.file] = message }
        let rate = Double(sampleRate)
        // First lay out where each message goes, then fill one zeroed buffer: a real-time
        // mixdown of a long run is tens of millions of samples.
        var placements: [(offset: Int, samples: [Float]?)] = []
        var length = 0
        var previousEnd = 0.0  // run seconds where the previous message ended
        for play in timeline.plays {
            if case .compressed(let maximum) = silence {
                length += Int((min(max(0, play.startSeconds - previousEnd), maximum) * rate).rounded())
            } else {
                // At its own time, which may fall between fixes (a wake-up at its marker).
                length = max(length, Int((play.startSeconds * rate).rounded()))
            }
            let samples = byFile[play.file]?.samples
            placements.append((length, samples))
            length += samples?.count ?? Int(((play.endSeconds - play.startSeconds) * rate).rounded())
            previousEnd = play.endSeconds
        }
        var output = [Float](repeating: 0, count: length)
        for placement in placements {
            guard let samples = placement.samples else { continue }
            output.replaceSubrange(placement.offset..<(placement.offset + samples.count), with: samples)
        }
        return output
    }
}
