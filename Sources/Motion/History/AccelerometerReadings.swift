/// What both accelerometer histories answer (`AccelerometerHistory` in memory,
/// `AccelerometerHistoryFile` on disk): readings kept oldest first with increasing timestamps, so
/// the span is two look-ups and a time range two binary searches.
public protocol AccelerometerReadings {
    /// Readings held.
    var count: Int { get }
    /// The `i`-th oldest reading, `0 ≤ i < count`.
    func reading(_ i: Int) -> AccelerometerData
    /// The readings with `start ≤ timestamp ≤ end`, oldest first (a default below; the file reads
    /// the range in one piece).
    func data(from start: Double, to end: Double) -> [AccelerometerData]
}

extension AccelerometerReadings {
    /// The oldest and newest timestamps held.
    public var span: ClosedRange<Double>? {
        guard count > 0 else { return nil }
        let first = reading(0).timestamp, last = reading(count - 1).timestamp
        // Both stores keep times in order; a file changed under us (NaN, out of order) has no span.
        guard first <= last else { return nil }
        return first...last
    }

    /// The readings with `start ≤ timestamp ≤ end`, oldest first.
    public func data(from start: Double, to end: Double) -> [AccelerometerData] {
        guard start <= end else { return [] }
        let lower = (0..<count).partitionPoint { reading($0).timestamp < start }
        let upper = (0..<count).partitionPoint { reading($0).timestamp <= end }
        return (lower..<max(lower, upper)).map(reading)
    }

    /// Whether `data` can follow what is held: finite values at a time after the newest. A reading
    /// whose time does not move forward (a replugged device whose clock restarted, a repeat) would
    /// unsort the history and every query with it; a file would be refused when read back.
    func follows(_ data: AccelerometerData) -> Bool {
        let a = data.acceleration
        return data.timestamp.isFinite && a.x.isFinite && a.y.isFinite && a.z.isFinite
            && (count == 0 || data.timestamp > reading(count - 1).timestamp)
    }
}
