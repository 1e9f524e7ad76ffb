import Synchronization

/// A single-writer, many-reader slot holding the most recent value: a double-buffered seqlock.
///
///     let slot = LatestValue<DeviceMotion>()
///     slot.publish(motion)                       // producer thread, never waits
///     if let m = slot.load() { … }               // any thread, no lock, no allocation
///     var mine = …; _ = slot.load(into: &mine)   // cheapest: copies straight into `mine`
///
/// Two payload buffers and two counters: `published` (complete publishes) and `begun` (publishes
/// started). Publish `n` goes to buffer `n & 1`: the writer sets `begun = n`, fills the buffer and
/// then sets `published = n`. A reader takes `n = published`, copies buffer `n & 1` and keeps the
/// copy only if `begun ≤ n + 1` afterwards: publish `n + 1` writes the other buffer, so only a
/// publish `n + 2` or later (which had begun, hence set `begun`, before any of its stores the
/// reader could have seen) can have touched the copy. Hence:
/// - the writer never waits for readers (it only stores);
/// - readers never wait for a writer stalled mid-publish (preempted, say): that write goes to the
///   other buffer. A reader retries only when the writer begins two publishes during its copy;
/// - a read returns exactly the publish `published` named, so one thread's reads never go back
///   in time (its later loads of `published` cannot return an older count).
///
/// The payload is stored as `Atomic<UInt64>` words, so the racing reads and writes are defined
/// behaviour in the C11/Swift memory model (Boehm, "Can seqlocks get along with programming
/// language memory models?", MSPC 2012: relaxed data accesses, a release fence after the writer's
/// first counter store, an acquire fence before the reader's re-check). Relaxed word accesses and
/// these fences compile to plain `mov`s on x86-64 (and plain `ldr`/`str` plus `dmb` on arm64).
///
/// Exactly one thread may call `publish` at a time (the source's delivery thread); `load` may be
/// called from any number of threads. Neither allocates: the buffers are allocated once in `init`
/// and readers copy the words straight into the caller's value, with no staging buffer (a staged
/// copy of a value this size costs several times the copy itself, in memcpy calls and
/// store-forwarding stalls). Inlinable, so callers in other modules get code specialised for
/// their `Value`: a fixed, unrolled run of word copies.
public final class LatestValue<Value: BitwiseCopyable>: @unchecked Sendable {
    // Sendable is sound: readers only read atomics (and `firstValue`, see there); `publish` is
    // documented single-writer.

    /// `[published][begun]` in the first cache line, then the two buffers, each starting on its
    /// own line so the writer filling one never invalidates the lines of the other under a reader.
    @usableFromInline let cells: UnsafeMutablePointer<Atomic<UInt64>>
    /// A complete value for `load()` to initialise its result with before copying over it: the
    /// first value published. Written once, before `published` becomes 1, and read only by readers
    /// that saw `published ≥ 1` (acquire), so the plain accesses never race.
    @usableFromInline let firstValue: UnsafeMutablePointer<Value>
    /// Kept out of `cells`, so readers never write to a line the writer uses.
    @usableFromInline let retryCounter = Atomic<Int>(0)

    /// Payload words per buffer: constants once specialised, so the copy loops unroll.
    @inlinable static var fullWords: Int { MemoryLayout<Value>.size / 8 }
    @inlinable static var tailBytes: Int { MemoryLayout<Value>.size % 8 }
    /// Words from one buffer's start to the next's: the payload rounded up to 64-byte lines.
    @inlinable static var bufferStride: Int { (fullWords + (tailBytes == 0 ? 0 : 1) + 7) & ~7 }
    private static var cellCount: Int { 8 + 2 * bufferStride }

    public init() {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: Self.cellCount * 8, alignment: 64)
        cells = raw.bindMemory(to: Atomic<UInt64>.self, capacity: Self.cellCount)
        for i in 0..<Self.cellCount { (cells + i).initialize(to: Atomic(0)) }
        firstValue = .allocate(capacity: 1)
    }

    deinit {
        cells.deinitialize(count: Self.cellCount)
        UnsafeMutableRawPointer(cells).deallocate()
        firstValue.deallocate()  // BitwiseCopyable: nothing to deinitialise
    }

    @inlinable var published: UnsafeMutablePointer<Atomic<UInt64>> { cells }
    @inlinable var begun: UnsafeMutablePointer<Atomic<UInt64>> { cells + 1 }

    /// The words of the buffer publish `n` goes to.
    @inlinable func buffer(_ n: UInt64) -> UnsafeMutablePointer<Atomic<UInt64>> {
        cells + 8 + Int(truncatingIfNeeded: n & 1) &* Self.bufferStride
    }

    /// Makes `value` the latest. Single writer; never blocks.
    @inlinable public func publish(_ value: Value) { publish(value, midWrite: {}) }

    /// `publish` with a hook called while the target buffer is being written (not yet published):
    /// tests stall a writer there to show readers do not wait for it.
    @inlinable @inline(__always)
    func publish(_ value: Value, midWrite: () -> Void) {
        let n = published.pointee.load(ordering: .relaxed) &+ 1  // only this thread writes it
        if n == 1 { firstValue.initialize(to: value) }
        begun.pointee.store(n, ordering: .relaxed)
        // Orders `begun = n` before the payload stores: a reader that sees any of them sees `begun`.
        atomicMemoryFence(ordering: .releasing)
        let words = buffer(n)
        withUnsafeBytes(of: value) { bytes in
            for i in 0..<Self.fullWords {
                words[i].store(bytes.loadUnaligned(fromByteOffset: i &* 8, as: UInt64.self), ordering: .relaxed)
            }
            if Self.tailBytes != 0 {
                var last: UInt64 = 0
                withUnsafeMutableBytes(of: &last) { last in
                    for j in 0..<Self.tailBytes { last[j] = bytes[Self.fullWords &* 8 &+ j] }
                }
                words[Self.fullWords].store(last, ordering: .relaxed)
            }
        }
        midWrite()
        published.pointee.store(n, ordering: .releasing)
    }

    /// Copies the latest value into `value` and returns true; before the first publish returns
    /// false and leaves `value` as it was. The cheapest pull: the words go straight into `value`.
    /// Never blocks the writer and never waits for a stalled one; retries only if two publishes
    /// begin during its copy.
    @inlinable public func load(into value: inout Value) -> Bool { load(into: &value, afterCopy: {}) }

    /// The latest value, or nil if nothing was published yet. As `load(into:)`, plus one copy of
    /// the result (and the Optional around it).
    @inlinable public func load() -> Value? { load(afterCopy: {}) }

    /// `load` with a hook between copying the payload and re-checking `begun`: the window in which
    /// a reader can be preempted mid-read. Tests hold a reader there to show the writer goes on.
    @inlinable @inline(__always)
    func load(afterCopy: () -> Void) -> Value? {
        guard published.pointee.load(ordering: .acquiring) != 0 else { return nil }
        // Any complete value (`published ≥ 1` made it visible), overwritten in place through `!`,
        // so the copy lands in the Optional's own storage rather than in one copied into it.
        var value: Value? = firstValue.pointee
        _ = load(into: &value!, afterCopy: afterCopy)
        return value
    }

    @inlinable @inline(__always)
    func load(into value: inout Value, afterCopy: () -> Void) -> Bool {
        // A torn copy may be an invalid `Value` (an enum's bits, say) until overwritten by a good
        // one, so it lives only in raw bytes until `begun` vouches for it.
        withUnsafeMutableBytes(of: &value) { bytes in
            while true {
                // Acquire: publish `n`'s payload stores happen before the copy below.
                let n = published.pointee.load(ordering: .acquiring)
                if n == 0 { return false }
                let words = buffer(n)
                for i in 0..<Self.fullWords {
                    bytes.storeBytes(of: words[i].load(ordering: .relaxed), toByteOffset: i &* 8, as: UInt64.self)
                }
                if Self.tailBytes != 0 {
                    var last = words[Self.fullWords].load(ordering: .relaxed)
                    withUnsafeBytes(of: &last) { last in
                        for j in 0..<Self.tailBytes { bytes[Self.fullWords &* 8 &+ j] = last[j] }
                    }
                }
                afterCopy()
                // Orders the payload loads before the `begun` load: if any word came from publish
                // `n + 2` or later, this load sees that publish's `begun`.
                atomicMemoryFence(ordering: .acquiring)
                if begun.pointee.load(ordering: .relaxed) <= n &+ 1 { return true }
                retryCounter.add(1, ordering: .relaxed)
            }
        }
    }

    /// How many times readers had to retry because publishes overlapped their copy (diagnostics).
    public var retryCount: Int { retryCounter.load(ordering: .relaxed) }

    /// How many values were published so far.
    public var publishCount: UInt64 { published.pointee.load(ordering: .acquiring) }
}
