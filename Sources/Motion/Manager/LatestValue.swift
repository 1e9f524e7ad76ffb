import Synchronization

/// A single-writer, many-reader slot holding the most recent value: a double-buffered seqlock.
///
///     let slot = LatestValue<DeviceMotion>()
///     slot.publish(motion)              // producer thread, never waits
///     if let m = slot.load() { … }      // any thread, no lock, no allocation
///
/// Two buffers, each guarded by its own sequence number, and a counter `latest` naming the newest
/// complete publish (its parity picks the buffer). The writer fills the buffer `latest` does *not*
/// point at (sequence to odd, payload, sequence to even) and then advances `latest`. A reader
/// copies the buffer `latest` points at between two reads of that buffer's sequence and retries
/// if it was odd or changed, so it never returns a torn value. Hence:
/// - the writer never waits for readers (it only stores);
/// - readers never wait for a writer stalled mid-publish (preempted, say): that write goes to the
///   other buffer. A reader retries only when the writer completes two publishes during its copy.
///
/// The payload is stored as `Atomic<UInt64>` words, so the racing reads and writes are defined
/// behaviour in the C11/Swift memory model; relaxed word accesses ordered by fences compile to
/// plain loads and stores on x86-64 and arm64.
///
/// Exactly one thread may call `publish` at a time (the source's delivery thread); `load`
/// may be called from any number of threads. Neither allocates on the heap: the buffers are
/// allocated once in `init`, and values are staged in stack temporaries (for values up to
/// 1 KiB, where `withUnsafeTemporaryAllocation` uses the stack). Inlinable, so callers in other
/// modules get code specialised for their `Value` (no generic metadata lookups per pull).
public final class LatestValue<Value: BitwiseCopyable>: @unchecked Sendable {
    // Sendable is sound: all shared state is atomics; `publish` is documented single-writer.

    /// Layout, one cache-line-aligned block: `[latest][seq₀][payload₀…][seq₁][payload₁…]`.
    /// `latest` counts complete publishes (0: none yet); publish `n` lives in buffer `n & 1`.
    /// The readers' retry counter lives elsewhere, so readers never write to a line the writer uses.
    @usableFromInline let cells: UnsafeMutablePointer<Atomic<UInt64>>
    @usableFromInline let retryCounter = Atomic<Int>(0)

    /// Payload words per buffer; a compile-time constant once specialised, so copies unroll and
    /// the staging buffers are fixed-size stack slots.
    @inlinable var wordCount: Int { Swift.max(1, (MemoryLayout<Value>.size + 7) / 8) }
    private var cellCount: Int { 1 + 2 * (1 + wordCount) }
    /// Index of buffer `b`'s sequence cell; its payload words follow it.
    @inlinable func sequenceIndex(_ buffer: UInt64) -> Int { 1 + Int(buffer) * (1 + wordCount) }

    public init() {
        let count = 1 + 2 * (1 + Swift.max(1, (MemoryLayout<Value>.size + 7) / 8))
        let raw = UnsafeMutableRawPointer.allocate(byteCount: count * 8, alignment: 64)
        cells = raw.bindMemory(to: Atomic<UInt64>.self, capacity: count)
        for i in 0..<count { (cells + i).initialize(to: Atomic(0)) }
    }

    deinit {
        cells.deinitialize(count: cellCount)
        UnsafeMutableRawPointer(cells).deallocate()
    }

    /// Makes `value` the latest. Single writer; never blocks.
    @inlinable public func publish(_ value: Value) { publish(value, midWrite: {}) }

    /// `publish` with a hook called while the target buffer is being written (sequence still odd):
    /// tests stall a writer there to show readers do not wait for it.
    @inlinable func publish(_ value: Value, midWrite: () -> Void) {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: wordCount) { staging in
            staging.initialize(repeating: 0)
            UnsafeMutableRawPointer(staging.baseAddress!).storeBytes(of: value, as: Value.self)
            let next = cells[0].load(ordering: .relaxed) &+ 1
            let sequence = sequenceIndex(next & 1)
            let s = cells[sequence].load(ordering: .relaxed)
            cells[sequence].store(s &+ 1, ordering: .relaxed)
            // Orders the odd sequence before the payload stores (a reader seeing any new word sees odd).
            atomicMemoryFence(ordering: .releasing)
            for i in 0..<wordCount { cells[sequence + 1 + i].store(staging[i], ordering: .relaxed) }
            midWrite()
            cells[sequence].store(s &+ 2, ordering: .releasing)
            cells[0].store(next, ordering: .releasing)
        }
    }

    /// The latest value, or nil if nothing was published yet. Never blocks the writer and never
    /// waits for a stalled one; retries only if two publishes complete during its copy.
    @inlinable public func load() -> Value? { load(afterCopy: {}) }

    /// `load` with a hook between copying the payload and re-checking the sequence: the window in
    /// which a reader can be preempted mid-read. Tests hold a reader there to show the writer goes on.
    @inlinable func load(afterCopy: () -> Void) -> Value? {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: wordCount) { staging in
            while true {
                let latest = cells[0].load(ordering: .acquiring)
                if latest == 0 { return nil }
                let sequence = sequenceIndex(latest & 1)
                let before = cells[sequence].load(ordering: .acquiring)
                if before & 1 == 0 {
                    for i in 0..<wordCount { staging[i] = cells[sequence + 1 + i].load(ordering: .relaxed) }
                    afterCopy()
                    // Orders the payload loads before the second sequence load.
                    atomicMemoryFence(ordering: .acquiring)
                    if cells[sequence].load(ordering: .relaxed) == before {
                        return UnsafeRawPointer(staging.baseAddress!).loadUnaligned(as: Value.self)
                    }
                }
                retryCounter.add(1, ordering: .relaxed)
            }
        }
    }

    /// How many times readers had to retry because publishes overlapped their copy (diagnostics).
    public var retryCount: Int { retryCounter.load(ordering: .relaxed) }

    /// How many values were published so far.
    public var publishCount: UInt64 { cells[0].load(ordering: .acquiring) }
}
