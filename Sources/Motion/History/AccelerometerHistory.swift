/// The last stretch of accelerometer readings in a fixed amount of memory: a ring buffer of
/// `capacity` readings that drops the oldest when full, and answers "the readings from t0 to t1"
/// by binary search. Pure; `SensorRecorder` fills one from a live source.
///
///     var history = AccelerometerHistory(capacity: 3 * 3600 * 100)   // three hours at 100 Hz, 96 MB
///     history.append(data)
///     let lastMinute = history.data(from: now - 60, to: now)
///
/// A reading whose timestamp does not move forward (a replugged device whose clock restarted, a
/// repeat) is dropped and counted, so the buffer stays sorted and every query stays a binary search.
public struct AccelerometerHistory: Sendable {
    /// The most readings kept; 32 bytes each.
    public let capacity: Int
    private var storage: [AccelerometerData] = []
    /// Index of the oldest reading once `storage` is full.
    private var head = 0
    /// Readings refused because their time did not increase.
    public private(set) var outOfOrder = 0
    /// Readings dropped to make room.
    public private(set) var evicted = 0

    public init(capacity: Int) {
        self.capacity = Swift.max(1, capacity)
        storage.reserveCapacity(Swift.min(self.capacity, 1 << 16))
    }

    /// Readings held.
    public var count: Int { storage.count }
    /// The oldest and newest timestamps held.
    public var span: ClosedRange<Double>? {
        guard let first = element(0), let last = element(count - 1) else { return nil }
        return first.timestamp...last.timestamp
    }

    public mutating func append(_ data: AccelerometerData) {
        guard data.timestamp.isFinite else { outOfOrder += 1; return }
        if let last = element(count - 1), data.timestamp <= last.timestamp {
            outOfOrder += 1
            return
        }
        if storage.count < capacity {
            storage.append(data)
        } else {
            storage[head] = data
            head = (head + 1) % capacity
            evicted += 1
        }
    }

    /// The readings with `start ≤ timestamp ≤ end`, oldest first.
    public func data(from start: Double, to end: Double) -> [AccelerometerData] {
        guard start <= end else { return [] }
        let lower = firstIndex { $0.timestamp >= start }
        let upper = firstIndex { $0.timestamp > end }
        return (lower..<upper).map { element($0)! }
    }

    public mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        head = 0
    }

    /// The `i`-th oldest reading.
    private func element(_ i: Int) -> AccelerometerData? {
        guard i >= 0, i < storage.count else { return nil }
        return storage[(head + i) % storage.count]
    }

    /// The first logical index whose reading satisfies `predicate` (monotone in time), or `count`.
    private func firstIndex(where predicate: (AccelerometerData) -> Bool) -> Int {
        (0..<count).partitionPoint { !predicate(element($0)!) }
    }
}
