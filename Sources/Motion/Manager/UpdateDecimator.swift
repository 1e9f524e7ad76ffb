/// Thins a stream of timestamped samples to one per `interval`, as Core Motion's update intervals.
///
/// Samples are kept on a fixed time grid (`nextDue += interval`) so timestamp jitter does not lower
/// the average rate; a sample is taken when it is within half a sample spacing of the grid point,
/// so the one nearest the grid wins. After a gap longer than the interval the grid restarts.
struct UpdateDecimator: Hashable, Sendable {
    /// Seconds between delivered samples; 0 delivers every sample.
    var interval: Double
    private var nextDue: Double?
    private var lastTimestamp: Double?

    init(interval: Double) { self.interval = interval }

    /// True if the sample at `timestamp` (seconds) should be delivered.
    mutating func admits(_ timestamp: Double) -> Bool {
        defer { lastTimestamp = timestamp }
        guard interval > 0 else { return true }
        guard let due = nextDue else {
            nextDue = timestamp + interval
            return true
        }
        let spacing = lastTimestamp.map { Swift.max(0, timestamp - $0) } ?? 0
        let tolerance = Swift.min(spacing, interval) / 2
        if timestamp + tolerance < due { return false }
        nextDue = timestamp - due > interval ? timestamp + interval : due + interval
        return true
    }

    /// Forgets the grid; the next sample is delivered and starts a new one.
    mutating func restart() {
        nextDue = nil
        lastTimestamp = nil
    }
}
