import Foundation

/// A clock tests advance by hand: `sleep(until:)` blocks until `advance` moves time past the deadline.
///
///     let clock = ManualClock()
///     let replay = ReplaySource(trace: trace, clock: clock, pacing: .realTime(speed: 1))
///     try replay.start { event in … }
///     clock.waitForSleepers(1)        // the replay waits for its next sample's time
///     clock.advance(by: 0.5)          // samples up to 0.5 s are now due
public final class ManualClock: InterruptibleClock, @unchecked Sendable {
    private let condition = NSCondition()
    private var current: Double
    /// Deadlines of the threads sleeping now, by sleep call.
    private var deadlines: [Int: Double] = [:]
    private var nextSleep = 0

    /// Starts at `now` seconds.
    public init(now: Double = 0) { current = now }

    public func now() -> Double {
        condition.lock(); defer { condition.unlock() }
        return current
    }

    public func sleep(until deadline: Double) {
        condition.lock()
        let id = beginSleep(until: deadline)
        while current < deadline { condition.wait() }
        deadlines[id] = nil
        condition.unlock()
    }

    public func sleep(until deadline: Double, unless interruption: SleepInterruption) -> Bool {
        interruption.onInterrupt(from: self) { [weak self] in self?.wake() }
        condition.lock()
        let id = beginSleep(until: deadline)
        while current < deadline && !interruption.isInterrupted { condition.wait() }
        deadlines[id] = nil
        let reached = current >= deadline
        condition.unlock()
        return reached
    }

    /// Moves time forward by `seconds` (≥ 0) and wakes sleepers whose deadline has come.
    public func advance(by seconds: Double) {
        condition.lock()
        current += max(0, seconds)
        condition.broadcast()
        condition.unlock()
    }

    /// Moves time forward to `time` (never backward).
    public func advance(to time: Double) {
        condition.lock()
        current = max(current, time)
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks until at least `count` threads sleep on this clock until a time not yet reached, or
    /// `timeout` real seconds pass; true if they do. After `advance`, this tells a test that a
    /// source has done everything that became due and waits again.
    @discardableResult
    public func waitForSleepers(_ count: Int, timeout: Double = 5) -> Bool {
        let limit = Date(timeIntervalSinceNow: timeout)
        condition.lock(); defer { condition.unlock() }
        while blockedSleepers < count {
            if !condition.wait(until: limit) { return blockedSleepers >= count }
        }
        return true
    }

    private var blockedSleepers: Int { deadlines.values.reduce(0) { $0 + ($1 > current ? 1 : 0) } }

    /// Registers a sleeper (lock held) and tells `waitForSleepers`.
    private func beginSleep(until deadline: Double) -> Int {
        nextSleep += 1
        deadlines[nextSleep] = deadline
        condition.broadcast()
        return nextSleep
    }

    private func wake() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }
}
