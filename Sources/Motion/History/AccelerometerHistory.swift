/// The last stretch of accelerometer readings in a fixed amount of memory: a ring buffer of
/// `capacity` readings that drops the oldest when full, and answers "the readings from t0 to t1"
/// by binary search. Pure; `SensorRecorder` fills one from a live source, or an
/// `AccelerometerHistoryFile` to keep the history on disk.
///
///     var history = AccelerometerHistory(capacity: 3 * 3600 * 100)   // three hours at 100 Hz, 96 MB
///     history.append(data)
///     let lastMinute = history.data(from: now - 60, to: now)
///
/// A reading whose timestamp does not move forward (a replugged device whose clock restarted, a
/// repeat), or with a value that is not finite, is dropped and counted, so the buffer stays sorted
/// and every query stays a binary search.
public struct AccelerometerHistory: AccelerometerReadings, Sendable {
    /// The most readings kept; 32 bytes each.
    public var capacity: Int { ring.capacity }
    private var storage: [AccelerometerData] = []
    private var ring: RingIndex
    /// Readings refused because their time did not increase or a value was not finite.
    public private(set) var outOfOrder = 0
    /// Readings dropped to make room.
    public private(set) var evicted = 0

    public init(capacity: Int) {
        ring = RingIndex(capacity: capacity)
        storage.reserveCapacity(Swift.min(ring.capacity, 1 << 16))
    }

    /// Readings held.
    public var count: Int { ring.count }

    public mutating func append(_ data: AccelerometerData) {
        guard follows(data) else {
            outOfOrder += 1
            return
        }
        let (slot, evicts) = ring.append()
        if slot == storage.count { storage.append(data) } else { storage[slot] = data }
        if evicts { evicted += 1 }
    }

    public mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        ring.removeAll()
    }

    /// The `i`-th oldest reading, `0 ≤ i < count`.
    public func reading(_ i: Int) -> AccelerometerData { storage[ring.slot(i)] }
}
