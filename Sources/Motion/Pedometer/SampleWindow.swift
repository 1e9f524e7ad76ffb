/// The last `count` values of an evenly sampled signal, oldest first: a fixed ring, no allocation
/// after `init`.
struct SampleWindow: Hashable, Sendable {
    private var storage: [Double]
    private var start = 0
    private(set) var filled = 0

    init(count: Int) { storage = Array(repeating: 0, count: max(1, count)) }

    var count: Int { storage.count }
    var isFull: Bool { filled == storage.count }

    /// Value `i` from the oldest (0) to the newest (`count - 1`) of a full window.
    subscript(i: Int) -> Double { storage[(start + i) % storage.count] }

    mutating func push(_ x: Double) {
        if filled < storage.count {
            storage[(start + filled) % storage.count] = x
            filled += 1
        } else {
            storage[start] = x
            start = (start + 1) % storage.count
        }
    }

    mutating func reset() {
        start = 0
        filled = 0
    }
}
