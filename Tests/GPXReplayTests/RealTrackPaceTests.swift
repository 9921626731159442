import Foundation
import Testing
import RunTracking

/// The real tracks as recorded, without added noise, at every pace from 0.8 m/s to
/// 6.5 m/s and every fix interval from 1 s to 15 s, steady or varying. Their point-to-point
/// sum is an upper bound, and the jitter is all the tracker may take off: within -4%/+1%.
struct RealTrackPaceTests {
    @Test(arguments: TrackerCorpus.realTracks.indices)
    func withinFourPercentBelowAndOneAboveThePointToPointSum(_ index: Int) throws {
        let variant = TrackerCorpus.realTracks[index]
        let fixes = try variant.fixes(samples: TrackerCorpusTests.samples)
        let sum = CleanPath.rawSum(of: fixes)
        var tracker = DistanceTracker()
        for fix in fixes { _ = tracker.update(with: fix) }
        let error = (tracker.meters - sum) / sum
        #expect(error >= -0.04 && error <= 0.01, "\(variant): sum \(Int(sum)) m, tracker \(Int(tracker.meters)) m (\(error * 100)%)")
    }
}
