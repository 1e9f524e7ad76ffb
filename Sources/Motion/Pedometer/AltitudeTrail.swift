/// The smoothed altitude of the last few minutes, one point every `spacing` s, so `FloorCounter`
/// can tell over what time a floor's height was gained: since the altitude last stood a floor
/// lower. A fixed ring: no allocation after `init`.
struct AltitudeTrail: Hashable, Sendable {
    /// Seconds between two kept points.
    let spacing: Double
    private var times: SampleWindow
    private var altitudes: SampleWindow

    /// Keeps `duration` s at one point every `spacing` s.
    init(duration: Double, spacing: Double) {
        self.spacing = max(spacing, 1e-3)
        let count = Int(min(max(duration / self.spacing, 1), 100_000))
        times = SampleWindow(count: count)
        altitudes = SampleWindow(count: count)
    }

    /// Keeps `altitude` (m) at `time` (s) unless the last point kept is under `spacing` s before it.
    mutating func add(time: Double, altitude: Double) {
        if times.filled > 0, time - times[times.filled - 1] < spacing { return }
        times.push(time)
        altitudes.push(altitude)
    }

    /// The last time, s, the altitude was at or below `level` m (`above`: at or above it); the
    /// oldest time kept when it never was, nil when nothing is kept.
    func lastTime(at level: Double, above: Bool) -> Double? {
        guard times.filled > 0 else { return nil }
        for i in stride(from: times.filled - 1, through: 0, by: -1) {
            let h = altitudes[i]
            if above ? h >= level : h <= level { return times[i] }
        }
        return times[0]
    }

    mutating func reset() {
        times.reset()
        altitudes.reset()
    }
}
