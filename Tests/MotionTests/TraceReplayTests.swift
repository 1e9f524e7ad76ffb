import Foundation
import Testing
@testable import Motion
import TestSupport

/// Collects a source's events from its thread.
final class EventLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var events: [MotionSourceEvent] = []

    func append(_ event: MotionSourceEvent) {
        condition.lock(); events.append(event); condition.broadcast(); condition.unlock()
    }

    var all: [MotionSourceEvent] { condition.lock(); defer { condition.unlock() }; return events }

    var samples: [MotionSample] {
        all.samples
    }

    /// Blocks until `predicate` holds for the events so far, or `timeout` real seconds pass.
    @discardableResult
    func wait(timeout: Double = 10, until predicate: ([MotionSourceEvent]) -> Bool) -> Bool {
        let limit = Date(timeIntervalSinceNow: timeout)
        condition.lock(); defer { condition.unlock() }
        while !predicate(events) { if !condition.wait(until: limit) { return predicate(events) } }
        return true
    }
}

@Suite struct TraceReplayTests {
    /// The first 2 s of the real mpower recording (≈100 Hz, timestamps with jitter).
    private func excerpt() throws -> Trace {
        try TraceTestFiles.loaded(TraceTestFiles.mpowerBalance).cut(from: 0, to: 2)
    }

    @Test func realTimeReplayDeliversNoSampleBeforeItsTime() throws {
        let trace = try excerpt()
        let clock = ManualClock(now: 1000)
        let (replay, log) = try startedRealTime(trace, on: clock)
        defer { replay.stop() }
        let first = trace.samples[0].timestamp
        // Only the sample due at the start is out; the replay waits on the clock for the next.
        #expect(clock.waitForSleepers(1))
        #expect(log.samples == [trace.samples[0]])
        var now = 0.0
        for step in [0.0005, 0.0095, 0.013, 0.25, 0.5, 0.2265] {
            now += step
            clock.advance(to: 1000 + now)
            #expect(clock.waitForSleepers(1))
            let due = trace.samples.filter { $0.timestamp - first <= now }
            #expect(log.samples == due, "at \(now) s")
        }
        clock.advance(by: 10)
        #expect(log.wait { $0.last == .ended })
        #expect(log.samples == trace.samples)
        #expect(log.all.filter { $0 == .ended }.count == 1)
    }

    /// A real-time replay of `trace` on `clock`, started, and the log of what it delivers.
    private func startedRealTime(_ trace: Trace, on clock: ManualClock, speed: Double = 1) throws -> (ReplaySource, EventLog) {
        let replay = ReplaySource(trace: trace, clock: clock, pacing: .realTime(speed: speed))
        let log = EventLog()
        try replay.start(log.append)
        return (replay, log)
    }

    /// The sample counts of the `.samples` events in `events`.
    private func batchSizes(_ events: [MotionSourceEvent]) -> [Int] {
        events.compactMap { if case .samples(let batch) = $0 { batch.count } else { nil } }
    }

    @Test func realTimeReplayKeepingUpDeliversEachSampleAloneOnItsTime() throws {
        let trace = try excerpt()
        let clock = ManualClock(now: 50)
        let (replay, log) = try startedRealTime(trace, on: clock)
        defer { replay.stop() }
        let first = trace.samples[0].timestamp
        #expect(clock.waitForSleepers(1))
        for i in 1..<40 {
            clock.advance(to: 50 + trace.samples[i].timestamp - first)
            #expect(clock.waitForSleepers(1))
            #expect(log.samples == Array(trace.samples.prefix(i + 1)), "sample \(i) out on its time")
        }
        #expect(batchSizes(log.all).allSatisfy { $0 == 1 })
    }

    @Test func realTimeReplayBehindItsScheduleCatchesUpInBatches() throws {
        let trace = try excerpt()
        let clock = ManualClock()
        let (replay, log) = try startedRealTime(trace, on: clock)
        defer { replay.stop() }
        #expect(clock.waitForSleepers(1))
        clock.advance(by: 1.5)  // the replay wakes 1.5 s late: everything up to then is due at once
        #expect(clock.waitForSleepers(1))
        let first = trace.samples[0].timestamp
        let due = trace.samples.filter { $0.timestamp - first <= 1.5 }
        #expect(log.samples == due)
        let sizes = batchSizes(log.all)
        #expect(sizes.allSatisfy { 1...ReplaySource.batchLimit ~= $0 })
        #expect(sizes.count < due.count / 8, "\(sizes)")
    }

    @Test func speedFactorScalesTheWait() throws {
        let trace = try excerpt()
        let clock = ManualClock()
        let (replay, log) = try startedRealTime(trace, on: clock, speed: 4)
        defer { replay.stop() }
        #expect(clock.waitForSleepers(1))
        clock.advance(by: 0.25)  // 1 s of trace at 4×
        #expect(clock.waitForSleepers(1))
        let first = trace.samples[0].timestamp
        #expect(log.samples == trace.samples.filter { $0.timestamp - first <= 1 })
    }

    @Test func asFastAsPossibleDeliversEverythingThenEnded() throws {
        let trace = try TraceTestFiles.loaded(TraceTestFiles.motionSenseStairs)
        let replay = ReplaySource(trace: trace, clock: ManualClock(), pacing: .asFastAsPossible)
        let log = EventLog()
        try replay.start(log.append)
        #expect(log.wait { $0.last == .ended })
        replay.stop()
        #expect(log.samples == trace.samples)
        #expect(log.all.last == .ended)
        // Back to back, so in full batches (the last one the rest): no event per sample.
        let sizes = log.all.dropLast().map { event in if case .samples(let batch) = event { batch.count } else { 0 } }
        #expect(sizes.dropLast().allSatisfy { $0 == ReplaySource.batchLimit })
        #expect(sizes.last.map { 1...ReplaySource.batchLimit ~= $0 } == true)
    }

    @Test func loopingKeepsTimestampsIncreasing() throws {
        let trace = try excerpt()
        let replay = ReplaySource(trace: trace, clock: ManualClock(), pacing: .asFastAsPossible, loop: true)
        let log = EventLog()
        try replay.start(log.append)
        #expect(log.wait { $0.samples.count >= 3 * trace.samples.count + 5 })
        replay.stop()
        let samples = log.samples
        #expect(!log.all.contains(.ended))
        #expect(zip(samples, samples.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
        let period = try #require(trace.medianPeriod)
        let n = trace.samples.count
        // Second pass: same data, offset by duration + one median period.
        #expect(abs(samples[n].timestamp - (trace.samples[n - 1].timestamp + period)) < 1e-12)
        #expect(samples[n].acceleration == trace.samples[0].acceleration)
        #expect(abs(samples[2 * n + 3].timestamp - trace.samples[3].timestamp - 2 * replay.loopLength) < 1e-9)
    }

    @Test func stopWhileWaitingOnTheClockReturnsAndNothingArrivesAfter() throws {
        let trace = try excerpt()
        let clock = ManualClock()
        let (replay, log) = try startedRealTime(trace, on: clock)
        #expect(clock.waitForSleepers(1))
        replay.stop()  // must not wait for the clock, which never moves by itself
        let count = log.all.count
        clock.advance(by: 100)
        Thread.sleep(forTimeInterval: 0.05)
        #expect(log.all.count == count)
        #expect(!log.all.contains(.ended))
    }

    @Test func stopDuringFastDeliveryJoins() throws {
        let trace = try TraceTestFiles.loaded(TraceTestFiles.motionSenseStairs)
        let replay = ReplaySource(trace: trace, pacing: .asFastAsPossible, loop: true)
        let log = EventLog()
        try replay.start(log.append)
        #expect(log.wait { $0.count > 100 })
        replay.stop()
        let count = log.all.count
        Thread.sleep(forTimeInterval: 0.05)
        #expect(log.all.count == count)
    }

    @Test func canRestartAfterStopButNotStartTwice() throws {
        let trace = try excerpt()
        let replay = ReplaySource(trace: trace, clock: ManualClock(), pacing: .asFastAsPossible)
        let log = EventLog()
        try replay.start(log.append)
        #expect(throws: ReplayError.alreadyStarted) { try replay.start(log.append) }
        #expect(log.wait { $0.last == .ended })
        replay.stop()
        try replay.start(log.append)
        #expect(log.wait { $0.filter { $0 == .ended }.count == 2 })
        replay.stop()
        #expect(log.samples == trace.samples + trace.samples)
    }

    @Test func realClockReplayHonoursTimestamps() throws {
        // 0.5 s of trace at 2× on the monotonic clock: takes about 0.25 s, never less.
        let trace = try excerpt().cut(from: 0, to: 0.5)
        let replay = ReplaySource(trace: trace, pacing: .realTime(speed: 2))
        let log = EventLog()
        let clock = MonotonicClock()
        let start = clock.now()
        try replay.start(log.append)
        #expect(log.wait { $0.last == .ended })
        let elapsed = clock.now() - start
        replay.stop()
        #expect(elapsed >= trace.duration / 2)
        #expect(log.samples == trace.samples)
    }
}
