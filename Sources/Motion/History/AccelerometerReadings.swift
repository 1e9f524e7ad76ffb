/// What both accelerometer histories answer (`AccelerometerHistory` in memory,
/// `AccelerometerHistoryFile` on disk): readings kept oldest first with increasing timestamps, so
/// the span is two look-ups and a time range two binary searches.
public protocol AccelerometerReadings {
    /// Readings held.
    var count: Int { get }
    /// The `i`-th oldest reading, `0 ≤ i < count`.
    func reading(_ i: Int) -> AccelerometerData
}

extension AccelerometerReadings {
    /// The oldest and newest timestamps held.
    public var span: ClosedRange<Double>? {
        guard count > 0 else { return nil }
        return reading(0).timestamp...reading(count - 1).timestamp
    }

    /// The readings with `start ≤ timestamp ≤ end`, oldest first.
    public func data(from start: Double, to end: Double) -> [AccelerometerData] {
        guard start <= end else { return [] }
        let lower = (0..<count).partitionPoint { reading($0).timestamp < start }
        let upper = (0..<count).partitionPoint { reading($0).timestamp <= end }
        return (lower..<max(lower, upper)).map(reading)
    }

    /// Whether `data` can follow what is held: a finite time after the newest. A reading whose
    /// time does not move forward (a replugged device whose clock restarted, a repeat) would
    /// unsort the history and every query with it.
    func follows(_ data: AccelerometerData) -> Bool {
        data.timestamp.isFinite && (count == 0 || data.timestamp > reading(count - 1).timestamp)
    }
}
