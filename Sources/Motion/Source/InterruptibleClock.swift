import Foundation

/// Lets a source's `stop()` wake its thread out of a clock sleep, so stopping never waits for
/// time to pass (with a `ManualClock`, it might never pass).
public final class SleepInterruption: @unchecked Sendable {
    private let lock = NSLock()
    private var interrupted = false
    private var wakers: [ObjectIdentifier: @Sendable () -> Void] = [:]

    public init() {}

    public var isInterrupted: Bool {
        lock.lock(); defer { lock.unlock() }
        return interrupted
    }

    /// Marks the interruption and wakes every clock a thread sleeps on.
    public func interrupt() {
        lock.lock()
        interrupted = true
        let wake = Array(wakers.values)
        lock.unlock()
        for w in wake { w() }
    }

    /// Called by a clock before it sleeps: `wake` runs on `interrupt()` (or at once if already interrupted).
    public func onInterrupt(from clock: AnyObject, _ wake: @escaping @Sendable () -> Void) {
        lock.lock()
        wakers[ObjectIdentifier(clock)] = wake
        let already = interrupted
        lock.unlock()
        if already { wake() }
    }
}

/// A clock whose sleeps an interruption can cut short.
public protocol InterruptibleClock: MotionClock {
    /// Blocks until `now() >= deadline` or `interruption` fires; false if interrupted.
    func sleep(until deadline: Double, unless interruption: SleepInterruption) -> Bool
}

extension MotionClock {
    /// Sleeps until `deadline` unless interrupted; false if interrupted. Clocks that are not
    /// `InterruptibleClock` sleep in slices of at most `slice` seconds, checking in between.
    public func sleep(until deadline: Double, unless interruption: SleepInterruption, slice: Double = 0.01) -> Bool {
        if let clock = self as? any InterruptibleClock {
            return clock.sleep(until: deadline, unless: interruption)
        }
        while !interruption.isInterrupted {
            let now = now()
            if now >= deadline { return true }
            sleep(until: min(deadline, now + slice))
        }
        return false
    }
}
