/// One raw reading from a motion source, in Core Motion's device frame and units:
/// x right, y toward the top edge, z out of the face.
///
/// Plain value type with no references, so it can be published to a lock-free pull slot
/// and copied without allocation.
public struct MotionSample: Hashable, Sendable {
    /// Seconds on the source's clock (monotonic for live devices, trace time for replays).
    public var timestamp: Double
    /// Acceleration including gravity, in g, Core Motion's sign: lying face up reads (0, 0, −1).
    public var acceleration: Vector3
    /// Angular rate in rad/s, right-hand rule, as measured (bias not removed); nil if the source has no gyro.
    public var rotationRate: Vector3?
    /// Magnetic field in µT, as measured; nil if the source has no magnetometer.
    public var magneticField: Vector3?
    /// Static air pressure in kPa (Core Motion's `CMAltitudeData.pressure` unit); nil if the source
    /// has no barometer. A barometer reads far slower than an IMU, so a source repeats its latest
    /// reading on the samples between two readings.
    public var pressure: Double?
    /// What the recording device itself estimated, where a trace carries it.
    public var reference: ReferenceMotion?

    public init(timestamp: Double, acceleration: Vector3, rotationRate: Vector3? = nil,
                magneticField: Vector3? = nil, pressure: Double? = nil, reference: ReferenceMotion? = nil) {
        self.timestamp = timestamp
        self.acceleration = acceleration
        self.rotationRate = rotationRate
        self.magneticField = magneticField
        self.pressure = pressure
        self.reference = reference
    }
}

/// A recording device's own fused output (for instance Core Motion's), kept beside the raw data.
public struct ReferenceMotion: Hashable, Sendable {
    /// Device → reference attitude.
    public var attitude: Quaternion?
    /// Gravity in g, device frame.
    public var gravity: Vector3?
    /// User acceleration in g, device frame.
    public var userAcceleration: Vector3?

    public init(attitude: Quaternion? = nil, gravity: Vector3? = nil, userAcceleration: Vector3? = nil) {
        self.attitude = attitude
        self.gravity = gravity
        self.userAcceleration = userAcceleration
    }
}
