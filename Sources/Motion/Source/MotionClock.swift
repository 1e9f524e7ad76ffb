import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Time for sources and the manager, in seconds. A seam so tests drive time by hand.
public protocol MotionClock: Sendable {
    /// Seconds since an arbitrary fixed origin.
    func now() -> Double
    /// Blocks until `now() >= deadline` (returns at once if it already is).
    func sleep(until deadline: Double)
}

/// CLOCK_MONOTONIC: never jumps, the clock live device timestamps are compared with.
public struct MonotonicClock: MotionClock {
    public init() {}

    public func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    public func sleep(until deadline: Double) {
        var ts = timespec(tv_sec: Int(deadline.rounded(.down)),
                          tv_nsec: Int((deadline - deadline.rounded(.down)) * 1e9))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}
