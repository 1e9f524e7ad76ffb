/// Gyro to aim, one motion sample at a time: space, tiered smoothing, cutoff, acceleration curve,
/// the "gyro off" ratchet. Pure: feed it `DeviceMotion` (gravity from fusion, bias-corrected rotation
/// rate) and sum the deltas into the view's yaw and pitch.
///
///     var aim = GyroAim(settings: .default)
///     let delta = aim.update(motion, dt: 1.0 / 100, gyroOff: buttonHeld)
///     viewYaw += delta.yaw; viewPitch += delta.pitch          // degrees
public struct GyroAim: Sendable {
    public let settings: GyroAimSettings
    private var smoothing: TieredSmoothing?

    public init(settings: GyroAimSettings = .default) {
        self.settings = settings
        smoothing = settings.smoothing.map { TieredSmoothing($0) }
    }

    /// The view's turn for one sample held `dt` seconds, degrees (yaw left, pitch up positive).
    /// While `gyroOff` is held nothing turns and the smoothing forgets, like a lifted mouse
    /// (GyroWiki's ratchet): the player re-centres the pad without moving the view.
    public mutating func update(_ motion: DeviceMotion, dt: Double, gyroOff: Bool = false) -> AimDelta {
        update(rotationRate: motion.rotationRate, gravity: motion.gravity, dt: dt, gyroOff: gyroOff)
    }

    public mutating func update(rotationRate: Vector3, gravity: Vector3, dt: Double, gyroOff: Bool = false) -> AimDelta {
        guard !gyroOff, dt > 0, dt.isFinite, rotationRate.isFinite, gravity.isFinite else {
            if gyroOff { smoothing?.reset() }
            return .zero
        }
        var rate = settings.space.aimRate(rotationRate: rotationRate, gravity: gravity,
                                          yawRelaxFactor: settings.yawRelaxFactor,
                                          sideReductionThreshold: settings.sideReductionThreshold)
        if smoothing != nil { rate = smoothing!.smooth(rate, dt: dt) }
        let degrees = 180 / Double.pi
        if let cutoff = settings.cutoff { rate = rate * cutoff.factor(atSpeed: rate.magnitude * degrees) }
        let scale = settings.sensitivity(atSpeed: rate.magnitude * degrees) * dt * degrees
        return AimDelta(yaw: rate.yaw * scale, pitch: rate.pitch * scale)
    }
}

/// A turn of the view, degrees: yaw left and pitch up positive.
public struct AimDelta: Hashable, Sendable {
    public var yaw: Double
    public var pitch: Double
    public init(yaw: Double, pitch: Double) { self.yaw = yaw; self.pitch = pitch }
    public static let zero = AimDelta(yaw: 0, pitch: 0)
}
