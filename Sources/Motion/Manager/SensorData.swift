/// One accelerometer reading, as Core Motion's `CMAccelerometerData`.
public struct AccelerometerData: Hashable, Sendable, BitwiseCopyable {
    /// Seconds on the source's clock.
    public var timestamp: Double
    /// Acceleration including gravity, g, device frame (lying face up reads (0, 0, −1)).
    public var acceleration: Vector3

    public init(timestamp: Double, acceleration: Vector3) {
        self.timestamp = timestamp
        self.acceleration = acceleration
    }
}

/// One gyroscope reading, as Core Motion's `CMGyroData`.
public struct GyroData: Hashable, Sendable, BitwiseCopyable {
    /// Seconds on the source's clock.
    public var timestamp: Double
    /// Angular rate, rad/s, right-hand rule, as measured (bias not removed).
    public var rotationRate: Vector3

    public init(timestamp: Double, rotationRate: Vector3) {
        self.timestamp = timestamp
        self.rotationRate = rotationRate
    }
}

/// One magnetometer reading, as Core Motion's `CMMagnetometerData`.
public struct MagnetometerData: Hashable, Sendable, BitwiseCopyable {
    /// Seconds on the source's clock.
    public var timestamp: Double
    /// Magnetic field, µT, as measured (device bias included).
    public var magneticField: Vector3

    public init(timestamp: Double, magneticField: Vector3) {
        self.timestamp = timestamp
        self.magneticField = magneticField
    }
}
