import Foundation

/// What `tiltkit replay` reports about a trace: length, rate, gaps, value ranges, columns.
/// Built from two passes over the samples, so a trace read from a file piece by piece is
/// summarised in memory that does not grow with it.
///
///     let summary = TraceSummary(trace)
///     for gap in summary.gaps { print("gap of \(gap.length) s at \(gap.start) s") }
public struct TraceSummary: Hashable, Sendable {
    /// A stretch with no samples, longer than `gapFactor` × the median period.
    public struct Gap: Hashable, Sendable {
        /// Index in `samples` of the sample before the gap.
        public var sampleIndex: Int
        /// Timestamps of the samples either side, seconds.
        public var start: Double
        public var end: Double
        public var length: Double { end - start }
    }

    /// The smallest and largest value of one column over the samples that fill it.
    public struct ColumnRange: Hashable, Sendable {
        public var column: String
        /// Unit as in the trace header ("g", "rad/s", "uT"; empty for the quaternion).
        public var unit: String
        public var min: Double
        public var max: Double
        /// How many samples fill the column.
        public var filled: Int
    }

    public var sampleCount: Int
    /// Seconds from first to last sample.
    public var duration: Double
    /// Samples per second over the whole trace: (count − 1) / duration; nil for one sample.
    public var meanRate: Double?
    /// Median seconds between samples, within 0.01 % (see `PeriodHistogram`); nil for one sample.
    public var medianPeriod: Double?
    public var gapFactor: Double
    /// The first `listedGapLimit` gaps in time order; `gapCount` counts them all.
    public var gaps: [Gap]
    public var gapCount: Int
    public var ranges: [ColumnRange]
    public var columns: TraceColumns
    public var sensors: SensorSet { columns.sensors }

    public init(_ trace: Trace, gapFactor: Double = 3, listedGapLimit: Int = 1000) {
        self.init(gapFactor: gapFactor, listedGapLimit: listedGapLimit) { visit in trace.samples.forEach(visit) }
    }

    /// Summarises the samples `forEachSample` hands to its argument, in time order. It is called
    /// twice (rate and ranges first, then the gaps, which need the median period), so the
    /// samples can come from a file read piece by piece instead of from memory.
    ///
    ///     let summary = try TraceSummary { visit in
    ///         let stream = try TraceSampleStream(contentsOf: url)
    ///         while let s = try stream.next() { visit(s) }
    ///     }
    public init(gapFactor: Double = 3, listedGapLimit: Int = 1000,
                forEachSample: (_ visit: (MotionSample) -> Void) throws -> Void) rethrows {
        var tally = TraceTally()
        try forEachSample { tally.add($0) }
        sampleCount = tally.count
        duration = tally.duration
        meanRate = sampleCount >= 2 && duration > 0 ? Double(sampleCount - 1) / duration : nil
        medianPeriod = tally.periods.median
        self.gapFactor = gapFactor
        columns = tally.columns
        ranges = tally.ranges(TraceChannel.written(for: columns).filter { $0 != .time })
        var gaps: [Gap] = [], gapCount = 0
        if let period = medianPeriod {
            var index = 0
            var previous: Double?
            try forEachSample { sample in
                defer { previous = sample.timestamp; index += 1 }
                guard let previous, sample.timestamp - previous > gapFactor * period else { return }
                gapCount += 1
                if gaps.count < listedGapLimit {
                    gaps.append(Gap(sampleIndex: index - 1, start: previous, end: sample.timestamp))
                }
            }
        }
        self.gaps = gaps
        self.gapCount = gapCount
    }
}

/// Counts, time span, filled columns, value ranges and the period histogram of samples seen one
/// at a time: the first pass of `TraceSummary`, and what a file replay needs before it plays.
struct TraceTally {
    private(set) var count = 0
    private(set) var first: Double?
    private(set) var last: Double?
    private(set) var columns: TraceColumns = []
    private(set) var periods = PeriodHistogram()
    /// Four slots per channel (`TraceChannel.allCases` order), one per component.
    private var extremes = Array(repeating: Extreme(), count: 4 * TraceChannel.allCases.count)

    private struct Extreme {
        var min = Double.infinity
        var max = -Double.infinity
        var filled = 0
    }

    var duration: Double { first.flatMap { f in last.map { $0 - f } } ?? 0 }

    init() {}

    /// The tally of what is left in `stream`, read to its end: a file replay's first pass.
    init(reading stream: TraceSampleStream) throws {
        while let sample = try stream.next() { add(sample) }
    }

    /// Seconds a looping replay adds to timestamps on each further pass: the span and one period
    /// (the median, else the file's nominal one, else 10 ms), so the seam keeps the trace's rhythm.
    static func loopLength(duration: Double, medianPeriod: Double?, nominalRate: Double?) -> Double {
        duration + (medianPeriod ?? nominalRate.map { 1 / $0 } ?? 0.01)
    }

    mutating func add(_ s: MotionSample) {
        if let last { periods.add(s.timestamp - last) }
        if first == nil { first = s.timestamp }
        last = s.timestamp
        count += 1
        columns.formUnion(TraceColumns(filledBy: CollectionOfOne(s)))
        note(.acceleration, s.acceleration)
        note(.rotationRate, s.rotationRate)
        note(.magneticField, s.magneticField)
        if let p = s.pressure { note(.pressure, 0, p) }
        if let q = s.reference?.attitude {
            note(.referenceAttitude, 0, q.w)
            note(.referenceAttitude, 1, q.x)
            note(.referenceAttitude, 2, q.y)
            note(.referenceAttitude, 3, q.z)
        }
        note(.referenceGravity, s.reference?.gravity)
        note(.referenceUserAcceleration, s.reference?.userAcceleration)
    }

    private mutating func note(_ channel: TraceChannel, _ v: Vector3?) {
        guard let v else { return }
        note(channel, 0, v.x)
        note(channel, 1, v.y)
        note(channel, 2, v.z)
    }

    private mutating func note(_ channel: TraceChannel, _ i: Int, _ v: Double) {
        let slot = 4 * TraceChannel.allCases.firstIndex(of: channel)! + i
        extremes[slot].min = Swift.min(extremes[slot].min, v)
        extremes[slot].max = Swift.max(extremes[slot].max, v)
        extremes[slot].filled += 1
    }

    /// One range per filled component of `channels`, in their order.
    func ranges(_ channels: [TraceChannel]) -> [TraceSummary.ColumnRange] {
        channels.flatMap { channel in
            channel.names.indices.compactMap { i in
                let e = extremes[4 * TraceChannel.allCases.firstIndex(of: channel)! + i]
                return e.filled == 0 ? nil : TraceSummary.ColumnRange(column: channel.names[i], unit: channel.unit,
                                                                       min: e.min, max: e.max, filled: e.filled)
            }
        }
    }
}

/// Periods between samples counted in buckets 1/8192 of an octave wide (8.5e-5 relative), so
/// the median needs no list of every period: a real trace fills a few hundred buckets, and no
/// trace more than 8192 per doubling from its shortest period to its longest.
public struct PeriodHistogram: Hashable, Sendable {
    private static let bucketsPerOctave = 8192.0
    /// Bucket index → how many periods fell in it and their sum.
    private var buckets: [Int: Bucket] = [:]
    private var count = 0

    private struct Bucket: Hashable, Sendable {
        var count = 0
        var sum = 0.0
    }

    public init() {}

    public mutating func add(_ period: Double) {
        // Periods are positive in a valid trace; anything else sorts below every real bucket.
        let key = period > 0 ? Int((log2(period) * PeriodHistogram.bucketsPerOctave).rounded(.down)) : Int.min
        buckets[key, default: Bucket()].count += 1
        buckets[key, default: Bucket()].sum += period
        count += 1
    }

    /// The mean of the bucket holding the median (element `count / 2` of the sorted periods, as
    /// `Trace.medianPeriod`): within 0.01 % of it.
    public var median: Double? {
        guard count > 0 else { return nil }
        var seen = 0
        for key in buckets.keys.sorted() {
            let bucket = buckets[key]!
            seen += bucket.count
            if seen > count / 2 { return bucket.sum / Double(bucket.count) }
        }
        return nil
    }
}
