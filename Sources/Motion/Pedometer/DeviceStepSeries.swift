/// A device step counter's readings over time, and its steps in any range: the readings' tally
/// (`DeviceStepTally`) at each reading's time, with the steps between two readings spread evenly
/// over the time between them. Two readings further apart than `maximumGap` (the device stopped
/// answering, or was not read) cover nothing between them: `StepCounter` counts that time from
/// the accelerometer.
public struct DeviceStepSeries: Sendable {
    /// Readings further apart than this, s, leave the time between them uncovered.
    public var maximumGap: Double
    /// Each reading's time, s, and the steps since the first reading.
    public private(set) var times: [Double] = []
    public private(set) var steps: [Int] = []
    private var tally = DeviceStepTally()

    public init(maximumGap: Double = 5) { self.maximumGap = maximumGap }

    /// Takes a reading of the counter at `time` (s, the samples' clock); a time that does not move
    /// forward is ignored.
    public mutating func add(time: Double, reading: Int) {
        guard time.isFinite, time > (times.last ?? -.infinity) else { return }
        _ = tally.add(reading)
        times.append(time)
        steps.append(tally.steps)
    }

    /// The covered stretches of [`start`, `end`): for each, its bounds and the device's steps in it.
    func covered(from start: Double, to end: Double) -> [(start: Double, end: Double, steps: Double)] {
        guard times.count >= 2, start < end else { return [] }
        var result: [(start: Double, end: Double, steps: Double)] = []
        var i = max(1, times.partitionPoint { $0 <= start })
        while i < times.count, times[i - 1] < end {
            let a = times[i - 1], b = times[i]
            let lo = max(a, start), hi = min(b, end)
            if b - a <= maximumGap, hi > lo {
                result.append((lo, hi, Double(steps[i] - steps[i - 1]) * (hi - lo) / (b - a)))
            }
            i += 1
        }
        return result
    }
}
