import Histogram

/// Percentiles of a latency or cost distribution, in nanoseconds, as reported by every bench.
///
///     var h = Distribution.makeHistogram()
///     h.record(1_234)                                   // picoseconds
///     let d = Distribution(h, unitsPerNanosecond: 1000) // d.p50 ≈ 1.234 ns
public struct Distribution: Codable, Hashable, Sendable {
    public var count: UInt64
    public var min: Double
    public var mean: Double
    public var p50: Double
    public var p90: Double
    public var p99: Double
    public var p999: Double
    public var max: Double

    public init(count: UInt64, min: Double, mean: Double, p50: Double, p90: Double, p99: Double,
                p999: Double, max: Double) {
        self.count = count
        self.min = min
        self.mean = mean
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.p999 = p999
        self.max = max
    }

    /// Reads the percentiles out of an HDR histogram whose values are in `1 / unitsPerNanosecond` ns
    /// (1000 for picoseconds, 1 for nanoseconds). An empty histogram gives all zeros.
    public init(_ histogram: Histogram<UInt64>, unitsPerNanosecond: Double) {
        let scale = 1 / unitsPerNanosecond
        guard histogram.totalCount > 0 else {
            self.init(count: 0, min: 0, mean: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0)
            return
        }
        self.init(count: histogram.totalCount,
                  min: Double(histogram.min) * scale,
                  mean: histogram.mean * scale,
                  p50: Double(histogram.valueAtPercentile(50)) * scale,
                  p90: Double(histogram.valueAtPercentile(90)) * scale,
                  p99: Double(histogram.valueAtPercentile(99)) * scale,
                  p999: Double(histogram.valueAtPercentile(99.9)) * scale,
                  max: Double(histogram.max) * scale)
    }

    /// Exact percentiles of a small sample (nearest rank), for figures gathered as plain arrays
    /// such as per-run fusion costs or per-frame times. Values in ns.
    public init(nanoseconds values: [Double]) {
        guard !values.isEmpty else {
            self.init(count: 0, min: 0, mean: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0)
            return
        }
        let sorted = values.sorted()
        func rank(_ p: Double) -> Double {
            // Nearest-rank percentile: the smallest value with at least p% of the sample at or below it.
            let index = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, index))]
        }
        self.init(count: UInt64(sorted.count), min: sorted[0],
                  mean: sorted.reduce(0, +) / Double(sorted.count),
                  p50: rank(50), p90: rank(90), p99: rank(99), p999: rank(99.9), max: sorted[sorted.count - 1])
    }

    /// An HDR histogram for values from 1 unit up to a minute in picoseconds, 3 significant digits.
    /// Allocates once here; `record` never allocates.
    public static func makeHistogram(highestTrackableValue: UInt64 = 60_000_000_000_000) -> Histogram<UInt64> {
        Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: highestTrackableValue,
                          numberOfSignificantValueDigits: .three)
    }
}
