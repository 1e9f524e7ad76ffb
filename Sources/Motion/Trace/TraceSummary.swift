/// What `tiltkit replay` reports about a trace: length, rate, gaps, value ranges, columns.
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
    /// Median seconds between samples; nil for one sample.
    public var medianPeriod: Double?
    public var gapFactor: Double
    public var gaps: [Gap]
    public var ranges: [ColumnRange]
    public var columns: TraceColumns
    public var sensors: SensorSet { columns.sensors }

    public init(_ trace: Trace, gapFactor: Double = 3) {
        let samples = trace.samples
        sampleCount = samples.count
        duration = trace.duration
        meanRate = samples.count >= 2 && duration > 0 ? Double(samples.count - 1) / duration : nil
        medianPeriod = trace.medianPeriod
        self.gapFactor = gapFactor
        columns = trace.columns
        gaps = []
        if let period = medianPeriod {
            for i in 1..<samples.count where samples[i].timestamp - samples[i - 1].timestamp > gapFactor * period {
                gaps.append(Gap(sampleIndex: i - 1, start: samples[i - 1].timestamp, end: samples[i].timestamp))
            }
        }
        ranges = TraceSummary.ranges(samples, channels: TraceChannel.written(for: columns).filter { $0 != .time })
    }

    private static func ranges(_ samples: [MotionSample], channels: [TraceChannel]) -> [ColumnRange] {
        var result: [ColumnRange] = []
        for channel in channels {
            for (i, name) in channel.names.enumerated() {
                var range = ColumnRange(column: name, unit: channel.unit, min: .infinity, max: -.infinity, filled: 0)
                for s in samples {
                    guard let v = value(s, channel, i) else { continue }
                    range.min = Swift.min(range.min, v)
                    range.max = Swift.max(range.max, v)
                    range.filled += 1
                }
                if range.filled > 0 { result.append(range) }
            }
        }
        return result
    }

    private static func value(_ s: MotionSample, _ channel: TraceChannel, _ i: Int) -> Double? {
        switch channel {
        case .time: return s.timestamp
        case .acceleration: return s.acceleration[i]
        case .rotationRate: return s.rotationRate?[i]
        case .magneticField: return s.magneticField?[i]
        case .referenceAttitude:
            guard let q = s.reference?.attitude else { return nil }
            return [q.w, q.x, q.y, q.z][i]
        case .referenceEulerAngles: return nil
        case .referenceGravity: return s.reference?.gravity?[i]
        case .referenceUserAcceleration: return s.reference?.userAcceleration?[i]
        }
    }
}
