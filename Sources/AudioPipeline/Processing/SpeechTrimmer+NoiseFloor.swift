extension SpeechTrimmer {
    /// One band's noise floor and the thresholds derived from it, in dBFS.
    struct NoiseFloor {
        /// The `noiseFloorPercentile` of the frame levels that are not digital silence, or their
        /// 2nd percentile when those quiet frames are not noise.
        var level: Double
        /// How much the quietest frames waver, in dB: a standard deviation estimated from the
        /// lower tail (2nd to 10th percentile), which speech does not reach. Zero when the tail
        /// wavers too much to be noise (see `Configuration.maximumNoiseSpread`).
        var spread: Double
        /// How much the quietest frames waver, in dB, whatever it is: the standard deviation
        /// `spread` is estimated from before it is judged noise or soft speech.
        var tailSpread = 0.0
        /// A frame at or above this starts speech.
        var enterLevel: Double
        /// A frame at or above this continues speech.
        var exitLevel: Double

        init(levels: [Double], configuration: Configuration) {
            var audible = levels.filter { $0 > configuration.digitalSilenceLevel }
            audible.sort()
            func percentile(_ fraction: Double) -> Double {
                audible[Int((min(1, max(0, fraction)) * Double(audible.count - 1)).rounded(.down))]
            }
            if audible.isEmpty {
                level = configuration.minimumNoiseFloor
                spread = 0
            } else {
                let low = percentile(configuration.noiseFloorPercentile)
                let lowest = percentile(0.02)
                // 0.772 is the distance between the 2nd and 10th percentiles of a normal
                // distribution in standard deviations.
                let tailSpread = max(0, low - lowest) / 0.772
                self.tailSpread = tailSpread
                if tailSpread <= configuration.maximumNoiseSpread {
                    level = max(configuration.minimumNoiseFloor, low)
                    spread = tailSpread
                } else {
                    // The quiet frames vary far more than noise does: they are soft speech, as in
                    // a short clip with no pause at all, or the tails of clean, gated speech.
                    // The quietest of them is the best floor there is, with the base margins.
                    level = max(configuration.minimumNoiseFloor, lowest)
                    spread = 0
                }
            }
            // Steady noise (white, pink) wavers little and the base margins apply; low rumble
            // wavers more, and the margins grow with it so its swells are not taken for words.
            let exitMargin = min(
                configuration.maximumExitThreshold,
                max(configuration.exitThreshold, configuration.noiseSpreadFactor * spread)
            )
            let enterMargin = max(
                configuration.enterThreshold,
                exitMargin + configuration.enterThreshold - configuration.exitThreshold
            )
            enterLevel = level + enterMargin
            exitLevel = level + exitMargin
        }

        /// Where a level stands: 1 or more at the enter level, 0 to 1 between exit and enter,
        /// negative below exit. Puts bands with different margins on one scale.
        @inline(__always)
        func score(_ value: Double) -> Double {
            (value - exitLevel) / max(enterLevel - exitLevel, 0.001)
        }
    }
}
