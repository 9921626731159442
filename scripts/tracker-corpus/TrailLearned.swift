import Foundation

/// The fixed-lag smoother without being told what the tracker cannot know: it learns the noise
/// model and finds the stand from the fixes alone, causally.
/// - The model: a bank of candidate models (σ, τ of the Gauss–Markov error, the white σ and
///   the motion's q, on a geometric grid as wide as the corpus's draws, not fitted to them)
///   runs side by side; at each fix the one whose innovations were the likeliest over the last
///   `window` seconds of fixes is the model in use (multiple-model selection by windowed
///   likelihood). q is learned with the rest because a fixed q lets the likelihood explain the
///   slow Gauss–Markov wander as motion, and then picks a small σ almost every run. A place
///   becomes final, `lag` after its fix, as smoothed by the model chosen then; the open tail
///   is smoothed by the model chosen at the newest fix.
/// - The stand: a step between two fixes counts nothing when the fixes around it, split in
///   two halves by time, have means that moved slower than `standSpeed`; only fixes up to the
///   decision time are used (so the open tail looks back more than forward).
extension TrailBound {
    struct LearnedSetting {
        /// The white acceleration's density (m²/s³) when told the true model; learned otherwise.
        var q = 0.3
        var lag = 30.0
        /// Seconds of innovations each candidate model is scored on (infinity: all so far).
        var window: Double
        /// Below this speed (m/s) of the fixes' means, a step is taken as standing still.
        var standSpeed: Double
        /// Half the span of fixes (seconds) the stand test looks at on each side of a step.
        var standSpan = 30.0
        /// Yardsticks that split what is lost: told the run's true model instead of learning
        /// it, or told the stand instead of finding it.
        var modelTold = false
        var standTold = false

        var description: String {
            let scored = window.isFinite ? String(format: "model and q scored on the last %.0f s", window) : "model and q scored on every fix so far"
            let model = modelTold ? String(format: "true model, q %g", q) : scored
            let stand = standTold ? "stand known" : String(format: "still below %g m/s over ±%.0f s", standSpeed, standSpan)
            return String(format: "lag %.0f s, %@, %@", lag, model, stand)
        }
    }

    static let learnedSettings: [LearnedSetting] = [300.0, .infinity].flatMap { window in
        [0.8, 1.2].flatMap { speed in [15.0, 30].map { LearnedSetting(window: window, standSpeed: speed, standSpan: $0) } }
    } + [LearnedSetting(window: 300, standSpeed: 0.8, standTold: true), LearnedSetting(window: 300, standSpeed: 0.8, modelTold: true)]

    /// The candidate models: σ 2 to 10 m, τ 10 to 160 s, white 0.5 to 3 m, q 0.1 to 1 m²/s³.
    static let candidateModels: [(sigma: Double, tau: Double, white: Double, q: Double)] =
        [2.0, 3, 4.5, 6.75, 10].flatMap { sigma in [10.0, 20, 40, 80, 160].flatMap { tau in [0.5, 1.5, 3].flatMap { white in [0.1, 0.3, 1].map { (sigma, tau, white, $0) } } } }

    /// The distance at each fix for each of `settings` (they share q and the lag), from the
    /// fixes alone.
    static func learned(_ fixes: Fixes, interval: Double, settings: [LearnedSetting], truth: CorpusVariant.Noise, stand: ClosedRange<Double>) -> [[Double]] {
        guard let first = settings.first else { return [] }
        let count = fixes.times.count, times = fixes.times
        let lag = Int((first.lag / interval).rounded())
        // The true model last, for the yardsticks alone: it is never among the candidates scored.
        let bank = (candidateModels + [(truth.sigma, truth.timeConstant, truth.white, first.q)]).map { model in
            (east: smooth(times: times, measured: fixes.measured.map(\.east), sigma: model.sigma, tau: model.tau, white: model.white, q: model.q),
             north: smooth(times: times, measured: fixes.measured.map(\.north), sigma: model.sigma, tau: model.tau, white: model.white, q: model.q))
        }
        // Running sums of each model's log-likelihood, of the fixes and of their times.
        let scores = bank.map { pass -> [Double] in
            var sums = [0.0]
            for k in 0..<count { sums.append(sums[k] + pass.east.logLikelihoods[k] + pass.north.logLikelihoods[k]) }
            return sums
        }
        var sumEast = [0.0], sumNorth = [0.0], sumTime = [0.0]
        for k in 0..<count {
            sumEast.append(sumEast[k] + fixes.measured[k].east)
            sumNorth.append(sumNorth[k] + fixes.measured[k].north)
            sumTime.append(sumTime[k] + times[k])
        }
        /// The first fix at or after `time` (binary search over the sorted times).
        func index(atOrAfter time: Double) -> Int {
            var low = 0, high = count
            while low < high {
                let middle = (low + high) / 2
                if times[middle] < time { low = middle + 1 } else { high = middle }
            }
            return low
        }

        return settings.map { setting in
            // The model in use at each fix: the likeliest over the window ending there.
            let chosen = setting.modelTold ? [Int](repeating: candidateModels.count, count: count) : (0..<count).map { k -> Int in
                let start = setting.window.isFinite ? index(atOrAfter: times[k] - setting.window) : 0
                return candidateModels.indices.max { scores[$0][k + 1] - scores[$0][start] < scores[$1][k + 1] - scores[$1][start] }!
            }
            // Whether the step into fix `i` is standing still, judged with the fixes up to `known`.
            func still(_ i: Int, known: Int) -> Bool {
                if setting.standTold { return stand.contains(times[i - 1]) && stand.contains(times[i]) }
                let low = index(atOrAfter: times[i] - setting.standSpan)
                let high = min(known, index(atOrAfter: times[i] + setting.standSpan + 1e-9) - 1)
                guard high - low >= 3 else { return false }
                let middle = index(atOrAfter: (times[low] + times[high]) / 2)
                let before = middle - low, after = high + 1 - middle
                guard before >= 2, after >= 2 else { return false }
                let early = Point(east: (sumEast[middle] - sumEast[low]) / Double(before), north: (sumNorth[middle] - sumNorth[low]) / Double(before))
                let late = Point(east: (sumEast[high + 1] - sumEast[middle]) / Double(after), north: (sumNorth[high + 1] - sumNorth[middle]) / Double(after))
                let elapsed = (sumTime[high + 1] - sumTime[middle]) / Double(after) - (sumTime[middle] - sumTime[low]) / Double(before)
                return early.distance(to: late) < setting.standSpeed * elapsed
            }
            // Final places: each smoothed, `lag` fixes on, by the model chosen then.
            let final = (0..<count).map { j -> Point in
                let last = min(j + lag, count - 1), pass = bank[chosen[last]]
                return Point(east: pass.east.lagged(from: j, upTo: last)[0], north: pass.north.lagged(from: j, upTo: last)[0])
            }
            var finalLength = [0.0]
            for k in 1..<count {
                let counted = still(k, known: min(k + lag, count - 1)) ? 0 : fixes.length([final[k - 1], final[k]]).last!
                finalLength.append(finalLength.last! + counted)
            }
            return (0..<count).map { k in
                let first = max(0, k - lag), pass = bank[chosen[k]]
                let tail = zip(pass.east.lagged(from: first, upTo: k), pass.north.lagged(from: first, upTo: k)).map { Point(east: $0, north: $1) }
                var length = finalLength[first]
                for i in 1..<max(1, tail.count) where !still(first + i, known: k) { length += tail[i - 1].distance(to: tail[i]) }
                return length
            }
        }
    }
}
