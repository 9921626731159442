import Benchmark

/// How far a run may stray before the benchmark tool calls it a regression (or an improvement
/// worth recording). `thresholds check` compares p90 with Thresholds/, which holds allocation
/// counts only; the time tolerances serve `baseline check` between two runs on a quiet machine.
///
/// Benchmark names hold no spaces or slashes: `thresholds update` writes such a name with
/// underscores, and `thresholds check` (benchmark 1.38.1) then looks for it as written.
public enum Tolerances {
    /// Time-based metrics: the machines these run on are shared, and a busy neighbour moves
    /// wall time by 10-20% even at p90. (CPU time would move less, but the tool reads it in
    /// 10 ms ticks, coarser than most of these iterations.)
    public static var time: BenchmarkThresholds { BenchmarkThresholds(relative: [.p90: 25]) }
    /// Allocations do not depend on the machine's load: the same code makes the same number,
    /// give or take the runtime's own few.
    public static var allocations: BenchmarkThresholds { BenchmarkThresholds(relative: [.p90: 1]) }
    /// For code that allocates nothing: a relative tolerance of nothing is nothing, so any
    /// allocation at all is counted instead.
    public static var noAllocations: BenchmarkThresholds { BenchmarkThresholds(absolute: [.p90: 1]) }

    /// The metrics every benchmark here records.
    public static var metrics: [BenchmarkMetric] { [.throughput, .wallClock, .mallocCountTotal] }

    /// Their tolerances; `allocates` is false for code that must not allocate per item.
    public static func thresholds(allocates: Bool = true) -> [BenchmarkMetric: BenchmarkThresholds] {
        [.throughput: time, .wallClock: time, .mallocCountTotal: allocates ? allocations : noAllocations]
    }
}
