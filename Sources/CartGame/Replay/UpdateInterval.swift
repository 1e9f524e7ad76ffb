/// Thins pushed device motion to one update per interval, as Core Motion's
/// `deviceMotionUpdateInterval` and the motion manager do: a fixed time grid, a sample taken
/// when it is within half a sample spacing of the grid point, and a fresh grid after a gap.
/// The headless replay uses it so it pushes exactly what the live manager would.
struct UpdateInterval: Hashable, Sendable {
    /// Seconds; 0 admits every sample.
    let interval: Double
    private var nextDue: Double?
    private var lastTimestamp: Double?

    init(_ interval: Double) { self.interval = interval }

    mutating func admits(_ timestamp: Double) -> Bool {
        defer { lastTimestamp = timestamp }
        guard interval > 0 else { return true }
        guard let due = nextDue else {
            nextDue = timestamp + interval
            return true
        }
        let spacing = lastTimestamp.map { max(0, timestamp - $0) } ?? 0
        if timestamp + min(spacing, interval) / 2 < due { return false }
        nextDue = timestamp - due > interval ? timestamp + interval : due + interval
        return true
    }
}
