import Motion

/// A source between the real one and the motion manager that notes, on the source's thread, each
/// sample, when it was handed over, and how long the manager took with it (fusion and publishing
/// to the pull slots: the work between a report's arrival and its being visible to a pull).
///
/// Notes go into storage allocated up front, so the tap adds no allocation to the source's
/// thread; past `capacity` samples are still delivered but no longer noted. Read `records` only
/// after the manager stopped the source (a source delivers nothing after `stop` returns).
final class TappedSource: RateSettableMotionSource, @unchecked Sendable {
    struct Record {
        var sample: MotionSample
        /// Nanoclock time the source handed the sample over.
        var arrival: UInt64
        /// Time inside the manager for this sample, ns (a batch's time shared equally by its samples).
        var processing: UInt64
    }

    let inner: any MotionSource
    private let storage: UnsafeMutableBufferPointer<Record>
    /// Written only on the source's thread while running.
    private var count = 0
    private(set) var disconnections: [String] = []
    private(set) var ended = false

    init(_ inner: any MotionSource, capacity: Int) {
        self.inner = inner
        storage = .allocate(capacity: Swift.max(1, capacity))
    }

    deinit {
        storage.baseAddress!.deinitialize(count: count)
        storage.deallocate()
    }

    var info: MotionSourceInfo { inner.info }

    func requestSampleRate(_ hertz: Double) -> Double? {
        (inner as? any RateSettableMotionSource)?.requestSampleRate(hertz)
    }

    func start(_ deliver: @escaping @Sendable (MotionSourceEvent) -> Void) throws {
        try inner.start { [self] event in
            switch event {
            case .samples(let batch):
                let arrival = Nanoclock.now()
                deliver(event)
                // a batch's samples arrived together; each is charged an equal share of its time
                let processing = (Nanoclock.now() &- arrival) / UInt64(Swift.max(1, batch.count))
                for sample in batch where count < storage.count {
                    (storage.baseAddress! + count).initialize(to: Record(sample: sample, arrival: arrival, processing: processing))
                    count += 1
                }
            case .disconnected(let reason):
                disconnections.append(reason)
                deliver(event)
            case .ended:
                ended = true
                deliver(event)
            case .reconnected:
                deliver(event)
            }
        }
    }

    func stop() { inner.stop() }

    var capacity: Int { storage.count }

    /// What was noted; call after `stop`.
    var records: UnsafeMutableBufferPointer<Record> { UnsafeMutableBufferPointer(rebasing: storage[..<count]) }
}
