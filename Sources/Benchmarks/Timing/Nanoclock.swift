#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_MONOTONIC in integer nanoseconds: the clock every bench measures with, the same one
/// `MonotonicClock` stamps samples with, so ages and latencies subtract cleanly.
///
/// A read costs about 20 ns through the vDSO, so per-call costs below that are measured by
/// timing a batch of calls and dividing (see `PullBenchmark`), and single-call figures subtract
/// `readCost`.
public enum Nanoclock {
    @inline(__always) public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// CPU time this thread has run, ns (CLOCK_THREAD_CPUTIME_ID): excludes the time other
    /// processes had the core, so cost figures hold up on a shared, loaded machine.
    @inline(__always) public static func threadCPUTime() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// CPU time of the whole process, all threads, ns (CLOCK_PROCESS_CPUTIME_ID).
    public static func processCPUTime() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Seconds, as `MonotonicClock.now()` reports them.
    @inline(__always) public static func seconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) * 1e-9 }

    /// Nanoseconds for a `MonotonicClock` timestamp in seconds.
    @inline(__always) public static func nanoseconds(_ seconds: Double) -> UInt64 { UInt64((seconds * 1e9).rounded()) }

    /// The median cost of one `now()` in ns, from back-to-back reads measured now.
    public static func readCost(samples: Int = 2001) -> Double {
        var deltas = [UInt64](repeating: 0, count: samples)
        for i in 0..<samples {
            let a = now()
            let b = now()
            deltas[i] = b &- a
        }
        deltas.sort()
        return Double(deltas[samples / 2])
    }

    /// Sleeps until the absolute CLOCK_MONOTONIC deadline (ns) with `clock_nanosleep(TIMER_ABSTIME)`,
    /// so pacing errors do not accumulate from one period to the next.
    public static func sleep(until deadline: UInt64) {
        var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}

/// Keeps the optimizer from deleting a value the bench computes but does not otherwise use.
/// Not inlined, so every variant measured pays the same call.
@inline(never) @_optimize(none)
public func blackHole<T>(_ value: borrowing T) {}
