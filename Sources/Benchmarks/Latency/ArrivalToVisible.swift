import Histogram
import Motion

/// Arrival → visible to a pull: a consumer spins on `latestDeviceMotion` and notes, for each new
/// sample it catches, how long after its arrival it became visible. `bench latency` on the bundled
/// replay and on a live `--source` both measure it this way.
enum ArrivalToVisible {
    /// Spins until `end` (Nanoclock ns): the delays (ns, at least 1), the samples caught, and the
    /// spin's (start, end).
    static func spin(_ manager: MotionManager, until end: UInt64) -> (Histogram<UInt64>, caught: Int, spun: (UInt64, UInt64)) {
        var visible = Distribution.makeHistogram()
        var last = manager.latestDeviceMotion?.arrivalTime ?? 0
        var caught = 0
        let start = Nanoclock.now()
        var now = start
        while now < end {
            let received = manager.latestDeviceMotion
            now = Nanoclock.now()
            if let received, received.arrivalTime != last {
                last = received.arrivalTime
                visible.record(Swift.max(1, now &- Swift.min(now, Nanoclock.nanoseconds(received.arrivalTime))))
                caught += 1
            }
        }
        return (visible, caught, (start, now))
    }
}
