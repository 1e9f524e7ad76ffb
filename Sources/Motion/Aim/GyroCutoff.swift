/// JoyShockMapper's gyro cutoff (README, GYRO_CUTOFF_SPEED and GYRO_CUTOFF_RECOVERY; `main.cpp`):
/// aim slower than `speed` is dropped; between `speed` and `recovery` it is scaled up linearly from
/// nothing to all of it, so a slow deliberate turn is damped rather than cut. With `recovery` at or
/// below `speed` the cutoff is a hard threshold.
///
///     let cutoff = GyroCutoff(speed: 1, recovery: 3)      // °/s of the pad
///     cutoff.factor(atSpeed: 2)                            // 0.5
public struct GyroCutoff: Hashable, Sendable {
    /// Aim speeds, °/s, before sensitivity.
    public var speed: Double
    public var recovery: Double

    public init(speed: Double, recovery: Double = 0) {
        self.speed = speed
        self.recovery = recovery
    }

    /// The share of an aim at `degreesPerSecond` that passes, 0…1.
    public func factor(atSpeed degreesPerSecond: Double) -> Double {
        if recovery > speed { return min(1, max(0, (degreesPerSecond - speed) / (recovery - speed))) }
        return degreesPerSecond < speed ? 0 : 1
    }
}
