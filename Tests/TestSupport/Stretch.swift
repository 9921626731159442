/// Where `meters` falls on a line given by the distance along it at each vertex
/// (`cumulative`, from 0, never decreasing): the stretch between vertices `low` and `high`
/// that holds it, found by halves (a course may have 100,000 vertices), and the share of that
/// stretch before it. Past either end, the end.
public func stretch(at meters: Double, along cumulative: [Double]) -> (low: Int, high: Int, share: Double) {
    let target = min(max(meters, 0), cumulative[cumulative.count - 1])
    var low = 0, high = cumulative.count - 1
    while high - low > 1 {
        let middle = (low + high) / 2
        if cumulative[middle] <= target { low = middle } else { high = middle }
    }
    let span = cumulative[high] - cumulative[low]
    return (low, high, span > 0 ? (target - cumulative[low]) / span : 0)
}
