/// How gyro rates become aim: the space, real-world sensitivity, an optional acceleration curve,
/// soft tiered smoothing for small motions. `GyroAimSettings.default` is 1:1 in player space.
///
///     var settings = GyroAimSettings.default
///     settings.space = .world
///     settings.acceleration = .init(lowerSensitivity: 0.5, upperSensitivity: 2, lowerSpeed: 20, upperSpeed: 120)
public struct GyroAimSettings: Hashable, Sendable {
    public var space: GyroSpace = .player
    /// View turn per pad turn, dimensionless: 1 turns the view by the angle the pad turned
    /// (GyroWiki, "Good gyro controls part 1: the gyro is a mouse": real-world sensitivity).
    /// Ignored when `acceleration` is set.
    public var sensitivity: Double = 1
    public var acceleration: GyroAcceleration?
    /// Soft tiered smoothing (GyroWiki, "Tight and smooth"): motions slower than `upperSpeed` are
    /// partly averaged over `window` seconds. nil: no smoothing.
    public var smoothing: TieredSmoothing.Settings? = .default
    /// Drops (or damps) the slowest aim, after smoothing (JoyShockMapper's order). nil: none.
    public var cutoff: GyroCutoff?
    public var yawRelaxFactor: Double = GyroSpace.defaultYawRelaxFactor
    public var sideReductionThreshold: Double = GyroSpace.defaultSideReductionThreshold

    public init() {}
    public static let `default` = GyroAimSettings()

    /// The sensitivity for an aim speed in °/s.
    public func sensitivity(atSpeed degreesPerSecond: Double) -> Double {
        acceleration?.sensitivity(atSpeed: degreesPerSecond) ?? sensitivity
    }
}

/// GyroWiki's acceleration (JoyShockMapper's MIN/MAX_GYRO_SENS between MIN/MAX_GYRO_THRESHOLD):
/// slow turns use `lowerSensitivity`, fast ones `upperSensitivity`, linear in between, clamped outside.
public struct GyroAcceleration: Hashable, Sendable {
    public var lowerSensitivity: Double
    public var upperSensitivity: Double
    /// Aim speeds, °/s, where the curve starts and ends.
    public var lowerSpeed: Double
    public var upperSpeed: Double

    public init(lowerSensitivity: Double, upperSensitivity: Double, lowerSpeed: Double, upperSpeed: Double) {
        self.lowerSensitivity = lowerSensitivity
        self.upperSensitivity = upperSensitivity
        self.lowerSpeed = lowerSpeed
        self.upperSpeed = upperSpeed
    }

    public func sensitivity(atSpeed v: Double) -> Double {
        guard upperSpeed > lowerSpeed else { return v >= upperSpeed ? upperSensitivity : lowerSensitivity }
        let t = min(1, max(0, (v - lowerSpeed) / (upperSpeed - lowerSpeed)))
        return lowerSensitivity + (upperSensitivity - lowerSensitivity) * t
    }
}
