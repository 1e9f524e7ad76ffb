/// A fixed number of the latest values, oldest overwritten first; the gesture detectors keep
/// pushed samples here and read their mean before each frame.
public struct RingBuffer: Hashable, Sendable {
    public let capacity: Int
    private var values: [Double]
    private var next = 0
    public private(set) var count = 0

    /// `capacity` ≥ 1 values.
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        values = Array(repeating: 0, count: self.capacity)
    }

    public var isFull: Bool { count == capacity }

    public mutating func append(_ value: Double) {
        values[next] = value
        next = (next + 1) % capacity
        count = min(count + 1, capacity)
    }

    /// Mean of the values held (0 when empty). Summed afresh: buffers are a few samples long.
    public var mean: Double {
        guard count > 0 else { return 0 }
        var sum = 0.0
        for i in 0..<count { sum += values[i] }
        return sum / Double(count)
    }

    public mutating func removeAll() {
        next = 0
        count = 0
    }
}
