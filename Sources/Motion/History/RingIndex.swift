/// The bookkeeping of a ring of `capacity` slots, wherever the slots live (an array, a file):
/// which slot the `i`-th oldest element is in, and which slot the next append overwrites.
struct RingIndex: Hashable, Sendable {
    let capacity: Int
    /// Elements held, up to `capacity`.
    private(set) var count: Int
    /// Slot of the oldest element once the ring is full (0 until then).
    private(set) var head: Int

    init(capacity: Int, count: Int = 0, head: Int = 0) {
        self.capacity = max(1, capacity)
        self.count = min(max(0, count), self.capacity)
        self.head = self.count == self.capacity ? min(max(0, head), self.capacity - 1) : 0
    }

    var isFull: Bool { count == capacity }

    /// The slot of the `i`-th oldest element.
    func slot(_ i: Int) -> Int { (head + i) % capacity }

    /// Claims the slot for a new newest element; true when it held the oldest, now dropped.
    mutating func append() -> (slot: Int, evicts: Bool) {
        if count < capacity {
            count += 1
            return (count - 1, false)
        }
        let slot = head
        head = (head + 1) % capacity
        return (slot, true)
    }

    mutating func removeAll() {
        count = 0
        head = 0
    }
}
