import CoreMetrics
import Prometheus

/// A `PrometheusMetricsFactory` that also gives metrics their `# HELP` text, which swift-metrics
/// has no place for. Metrics named in `help` are made in the registry with their text; any
/// other goes to the plain factory.
struct DescribedPrometheusFactory: MetricsFactory {
    let base: PrometheusMetricsFactory
    /// Help text by metric name.
    let help: [String: String]

    private var registry: PrometheusCollectorRegistry { base.registry }

    private func descriptor(_ label: String) -> MetricNameDescriptor? {
        help[label].map { MetricNameDescriptor(metricName: label, unitName: "", helpText: $0) }
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        guard let descriptor = descriptor(label) else { return base.makeCounter(label: label, dimensions: dimensions) }
        return registry.makeCounter(descriptor: descriptor, labels: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        guard let descriptor = descriptor(label) else {
            return base.makeFloatingPointCounter(label: label, dimensions: dimensions)
        }
        return registry.makeCounter(descriptor: descriptor, labels: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard let descriptor = descriptor(label) else {
            return base.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
        }
        guard aggregate else { return registry.makeGauge(descriptor: descriptor, labels: dimensions) }
        let buckets = base.valueHistogramBuckets[label] ?? base.defaultValueHistogramBuckets
        return registry.makeValueHistogram(descriptor: descriptor, labels: dimensions, buckets: buckets)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        guard let descriptor = descriptor(label) else { return base.makeMeter(label: label, dimensions: dimensions) }
        return registry.makeGauge(descriptor: descriptor, labels: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        guard let descriptor = descriptor(label) else { return base.makeTimer(label: label, dimensions: dimensions) }
        let buckets = base.durationHistogramBuckets[label] ?? base.defaultDurationHistogramBuckets
        return registry.makeDurationHistogram(descriptor: descriptor, labels: dimensions, buckets: buckets)
    }

    // The registry finds a metric to remove by identity, however it was made.
    func destroyCounter(_ handler: any CounterHandler) { base.destroyCounter(handler) }
    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        base.destroyFloatingPointCounter(handler)
    }
    func destroyRecorder(_ handler: any RecorderHandler) { base.destroyRecorder(handler) }
    func destroyMeter(_ handler: any MeterHandler) { base.destroyMeter(handler) }
    func destroyTimer(_ handler: any TimerHandler) { base.destroyTimer(handler) }
}
