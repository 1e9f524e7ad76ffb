import Synchronization

/// A single-writer, many-reader slot holding the most recent value: a seqlock.
///
///     let slot = LatestValue<DeviceMotion>()
///     slot.publish(motion)              // producer thread, never waits
///     if let m = slot.load() { … }      // any thread, no lock, no allocation
///
/// The writer never waits for readers: it bumps the sequence to odd, writes the payload, and
/// bumps it to even. A reader copies the payload between two reads of the sequence and retries
/// if the sequence was odd or changed, so it never returns a torn value. The payload is kept as
/// an array of `Atomic<UInt64>` words, so the racing reads and writes are defined behaviour in
/// the C11/Swift memory model (no plain data race), and relaxed word accesses ordered by the
/// fences cost the same as plain loads and stores on x86-64 and arm64.
///
/// Exactly one thread may call `publish` at a time (the source's delivery thread); `load`
/// may be called from any number of threads. Neither allocates on the heap: the words are
/// allocated once in `init`, and values are staged in stack temporaries.
public final class LatestValue<Value: BitwiseCopyable>: @unchecked Sendable {
    // Sendable is sound: all shared state is atomics; `publish` is documented single-writer.

    /// `slots[0]` is the sequence: even when stable, odd while a write is in progress, 0 before the
    /// first publish. `slots[1...]` are the payload words. They share one cache-line-aligned block,
    /// apart from the readers' retry counter, so readers never write to a line the writer uses.
    private let slots: UnsafeMutablePointer<Atomic<UInt64>>
    private let wordCount: Int
    private let retryCounter = Atomic<Int>(0)

    public init() {
        wordCount = Swift.max(1, (MemoryLayout<Value>.size + 7) / 8)
        let raw = UnsafeMutableRawPointer.allocate(byteCount: (1 + wordCount) * 8, alignment: 64)
        slots = raw.bindMemory(to: Atomic<UInt64>.self, capacity: 1 + wordCount)
        for i in 0...wordCount { (slots + i).initialize(to: Atomic(0)) }
    }

    deinit {
        slots.deinitialize(count: 1 + wordCount)
        UnsafeMutableRawPointer(slots).deallocate()
    }

    /// Makes `value` the latest. Single writer; never blocks.
    public func publish(_ value: Value) {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: wordCount) { staging in
            staging.initialize(repeating: 0)
            UnsafeMutableRawPointer(staging.baseAddress!).storeBytes(of: value, as: Value.self)
            let s = slots[0].load(ordering: .relaxed)
            slots[0].store(s &+ 1, ordering: .relaxed)
            // Orders the odd sequence before the payload stores (a reader seeing any new word sees odd).
            atomicMemoryFence(ordering: .releasing)
            for i in 0..<wordCount { slots[1 + i].store(staging[i], ordering: .relaxed) }
            slots[0].store(s &+ 2, ordering: .releasing)
        }
    }

    /// The latest value, or nil if nothing was published yet. Never blocks the writer; retries
    /// (spinning) only while a write overlaps the copy.
    public func load() -> Value? { load(afterCopy: {}) }

    /// `load` with a hook between copying the payload and re-checking the sequence: the window in
    /// which a reader can be preempted mid-read. Tests hold a reader there to show the writer goes on.
    func load(afterCopy: () -> Void) -> Value? {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: wordCount) { staging in
            while true {
                let before = slots[0].load(ordering: .acquiring)
                if before == 0 { return nil }
                if before & 1 == 0 {
                    for i in 0..<wordCount { staging[i] = slots[1 + i].load(ordering: .relaxed) }
                    afterCopy()
                    // Orders the payload loads before the second sequence load.
                    atomicMemoryFence(ordering: .acquiring)
                    if slots[0].load(ordering: .relaxed) == before {
                        return UnsafeRawPointer(staging.baseAddress!).loadUnaligned(as: Value.self)
                    }
                }
                retryCounter.add(1, ordering: .relaxed)
            }
        }
    }

    /// How many times readers had to retry because a write overlapped their copy (diagnostics).
    public var retryCount: Int { retryCounter.load(ordering: .relaxed) }

    /// How many values were published so far.
    public var publishCount: UInt64 { slots[0].load(ordering: .acquiring) / 2 }
}
