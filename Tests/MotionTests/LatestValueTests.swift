import CAllocationCounter
import Foundation
import Synchronization
import Testing
@testable import Motion

/// 16 words all derived from one counter, so a copy mixing two publishes (a torn read) shows.
struct CheckedPayload: BitwiseCopyable, Sendable {
    var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    init(_ n: UInt64) {
        words = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { raw in
            for i in 0..<16 { raw.storeBytes(of: Self.word(n, i), toByteOffset: i * 8, as: UInt64.self) }
        }
    }

    static func word(_ n: UInt64, _ i: Int) -> UInt64 { n ^ (UInt64(i) &* 0x9E37_79B9_7F4A_7C15) }

    var counter: UInt64 { words.0 }

    /// True if every word belongs to the same publish.
    var isIntact: Bool {
        withUnsafeBytes(of: words) { raw in
            (0..<16).allSatisfy { raw.load(fromByteOffset: $0 * 8, as: UInt64.self) == Self.word(counter, $0) }
        }
    }
}

/// Runs `body` on a new thread; `wait` joins it.
final class TestThread: Sendable {
    private let done = DispatchSemaphore(value: 0)

    init(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [done] in
            body()
            done.signal()
        }
        thread.name = name
        thread.start()
    }

    /// True if the thread finished within `seconds`.
    @discardableResult
    func wait(seconds: Double = 30) -> Bool { done.wait(timeout: .now() + seconds) == .success }
}

@Suite("LatestValue (seqlock pull slot)")
struct LatestValueTests {
    @Test("nil before the first publish, then always the latest value")
    func latest() {
        let slot = LatestValue<CheckedPayload>()
        #expect(slot.load() == nil)
        #expect(slot.publishCount == 0)
        slot.publish(CheckedPayload(7))
        #expect(slot.load()?.counter == 7)
        slot.publish(CheckedPayload(8))
        slot.publish(CheckedPayload(9))
        #expect(slot.load()?.counter == 9)
        #expect(slot.load()?.isIntact == true)
        #expect(slot.publishCount == 3)
    }

    @Test("the torn-read check detects a mixed copy")
    func checkerDetectsTearing() {
        var torn = CheckedPayload(5)
        torn.words.9 = CheckedPayload(6).words.9
        #expect(!torn.isIntact)
        #expect(CheckedPayload(6).isIntact)
    }

    @Test("no torn or out-of-order reads while two readers (load, load(into:)) hammer a writer")
    func noTornReads() {
        let slot = LatestValue<CheckedPayload>()
        let writes: UInt64 = 200_000
        let writerDone = Atomic<Bool>(false)
        let torn = Atomic<Int>(0)
        let backwards = Atomic<Int>(0)
        let reads = Atomic<Int>(0)
        slot.publish(CheckedPayload(1))

        // Reader 0 pulls with `load()`, reader 1 with `load(into:)`.
        let readers = (0..<2).map { r in
            TestThread("reader \(r)") {
                var last: UInt64 = 0
                var count = 0
                var value = CheckedPayload(0)
                while !writerDone.load(ordering: .acquiring) {
                    if r == 0 {
                        guard let loaded = slot.load() else { continue }
                        value = loaded
                    } else if !slot.load(into: &value) {
                        continue
                    }
                    count += 1
                    if !value.isIntact { torn.add(1, ordering: .relaxed) }
                    if value.counter < last { backwards.add(1, ordering: .relaxed) }
                    last = value.counter
                }
                reads.add(count, ordering: .relaxed)
            }
        }
        let writer = TestThread("writer") {
            for n in 2...writes { slot.publish(CheckedPayload(n)) }
            writerDone.store(true, ordering: .releasing)
        }
        #expect(writer.wait())
        for reader in readers { #expect(reader.wait()) }

        #expect(torn.load(ordering: .relaxed) == 0)
        #expect(backwards.load(ordering: .relaxed) == 0)
        #expect(reads.load(ordering: .relaxed) > 1000, "the readers must actually have raced the writer")
        #expect(slot.load()?.counter == writes)
        print("LatestValue hammer: \(reads.load(ordering: .relaxed)) reads, \(slot.retryCount) retries, \(torn.load(ordering: .relaxed)) torn")
    }

    @Test("a reader paused inside a read does not stop the writer, and its stale copy is discarded")
    func pausedReaderNeverBlocksWriter() {
        let slot = LatestValue<CheckedPayload>()
        slot.publish(CheckedPayload(1))
        let inside = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let result = Mutex<UInt64?>(nil)

        let reader = TestThread("paused reader") {
            var paused = false
            let value = slot.load(afterCopy: {
                if !paused {  // hold the reader between its copy and its check, once
                    paused = true
                    inside.signal()
                    resume.wait()
                }
            })
            result.withLock { $0 = value?.counter }
        }
        #expect(inside.wait(timeout: .now() + 10) == .success)

        // The reader holds a half-finished read. A lock-based slot would block this writer here.
        let extra: UInt64 = 10_000
        let writer = TestThread("writer") {
            for n in 2...(1 + extra) { slot.publish(CheckedPayload(n)) }
        }
        let writerFinished = writer.wait(seconds: 20)
        #expect(writerFinished, "the writer must finish all publishes while the reader is paused")
        #expect(slot.publishCount == 1 + extra)

        resume.signal()
        #expect(reader.wait())
        // The copy taken before the pause is stale; the reader must notice and return the latest.
        #expect(result.withLock { $0 } == 1 + extra)
        #expect(slot.retryCount >= 1)
    }

    @Test("a writer stalled in the middle of a publish does not make readers wait")
    func stalledWriterNeverBlocksReaders() {
        let slot = LatestValue<CheckedPayload>()
        slot.publish(CheckedPayload(1))
        let stalled = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let writer = TestThread("stalled writer") {
            slot.publish(CheckedPayload(2), midWrite: {
                stalled.signal()
                resume.wait()  // preempted mid-write, as the OS might
            })
        }
        #expect(stalled.wait(timeout: .now() + 10) == .success)

        // A single-buffer seqlock would spin here until the writer resumes; this one reads the
        // complete previous value at once, every time.
        let reads = Mutex<[UInt64]>([])
        let reader = TestThread("reader") {
            for _ in 0..<1000 { if let v = slot.load() { reads.withLock { $0.append(v.counter) } } }
        }
        let readerFinished = reader.wait(seconds: 10)
        #expect(readerFinished, "readers must not wait for the stalled writer")
        #expect(reads.withLock { $0 } == Array(repeating: 1, count: 1000))
        #expect(slot.retryCount == 0)

        resume.signal()
        #expect(writer.wait())
        #expect(slot.load()?.counter == 2)
        if !readerFinished { reader.wait() }
    }

    @Test("load(into:) leaves the value alone before the first publish, then copies the latest into it")
    func loadInto() {
        let slot = LatestValue<CheckedPayload>()
        var value = CheckedPayload(42)
        #expect(!slot.load(into: &value))
        #expect(value.counter == 42 && value.isIntact)
        slot.publish(CheckedPayload(7))
        slot.publish(CheckedPayload(8))
        #expect(slot.load(into: &value))
        #expect(value.counter == 8 && value.isIntact)
    }

    @Test("a value whose size is not a whole number of words round-trips, and a pull writes no byte past it")
    func oddSizedValue() {
        // 13 bytes: one full word and a 5-byte tail. In `Guarded`, `guardByte` sits at offset 13,
        // in the last word's other bytes, so a copy of a whole last word would overwrite it.
        struct Odd: BitwiseCopyable, Equatable {
            var word: UInt64
            var half: UInt32
            var byte: UInt8
        }
        struct Guarded { var odd: Odd; var guardByte: UInt8 }
        #expect(MemoryLayout<Odd>.size == 13)
        #expect(MemoryLayout<Guarded>.offset(of: \.guardByte) == 13)

        let slot = LatestValue<Odd>()
        let sent = Odd(word: 0x0102_0304_0506_0708, half: 0xA1B2_C3D4, byte: 0xE5)
        slot.publish(Odd(word: 1, half: 2, byte: 3))
        slot.publish(sent)
        #expect(slot.load() == sent)
        var guarded = Guarded(odd: Odd(word: 0, half: 0, byte: 0), guardByte: 0x5A)
        #expect(slot.load(into: &guarded.odd))
        #expect(guarded.odd == sent)
        #expect(guarded.guardByte == 0x5A)
    }

    @Test("pulling allocates nothing (counted by the malloc hook, which does see allocations)",
          .enabled(if: tk_allocation_counter_enabled() != 0, "built without TILTKIT_ALLOCATION_COUNTER=1"))
    func pullDoesNotAllocate() {
        let slot = LatestValue<Received<DeviceMotion>>()
        let motion = DeviceMotion(timestamp: 1, attitude: Attitude(roll: 0.1, pitch: 0.2, yaw: 0.3),
                                  rotationRate: Vector3(1, 2, 3), gravity: Vector3(0, 0, -1),
                                  userAcceleration: .zero,
                                  magneticField: CalibratedMagneticField(field: Vector3(20, 0, -40), accuracy: .high),
                                  heading: 12)
        slot.publish(Received(value: motion, arrivalTime: 5))
        _ = slot.load()  // warm up (type metadata is created lazily, once)

        // The hook counts: an allocating operation moves the counter.
        let beforeArray = tk_allocation_count()
        let array = [Int](repeating: 1, count: 64 + Int(motion.timestamp))
        #expect(tk_allocation_count() > beforeArray)
        #expect(array.count == 65)

        var sum = 0.0
        let before = tk_allocation_count()
        for _ in 0..<10_000 {
            if let received = slot.load() { sum += received.value.heading }
        }
        var into = Received(value: motion, arrivalTime: 0)
        for _ in 0..<10_000 {
            if slot.load(into: &into) { sum += into.arrivalTime }
        }
        let after = tk_allocation_count()
        #expect(after == before, "\(after - before) allocations in 20 000 pulls")
        #expect(sum == 120_000 + 50_000)

        let beforePublish = tk_allocation_count()
        for i in 0..<1000 { slot.publish(Received(value: motion, arrivalTime: Double(i))) }
        #expect(tk_allocation_count() == beforePublish, "publishing allocates nothing either")
    }
}
