import Motion

/// Joins the readings of several IIO devices (a sensor hub's accelerometer, gyroscope and
/// magnetometer, each its own device with its own rate) into Core Motion samples: one per
/// accelerometer reading, carrying the latest rotation rate and magnetic field seen before it.
/// Holding the last value rather than interpolating keeps the sample causal (nothing waits for a
/// later gyro reading), and a hub's sensors report within one interval of each other anyway.
public struct IIOSampleMerger: Sendable {
    public var accelerationSign: IIOUnits.AccelerationSign
    /// The other types the group has: no sample is made until each has been read once, so a
    /// combined source never starts with rows that lack its gyro or magnetometer.
    public var awaited: Set<IIODevice.ChannelType>
    private var latest: [IIODevice.ChannelType: Vector3] = [:]

    public init(accelerationSign: IIOUnits.AccelerationSign, awaiting awaited: Set<IIODevice.ChannelType> = []) {
        self.accelerationSign = accelerationSign
        self.awaited = awaited.subtracting([.accel])
    }

    /// One device's reading (physical IIO units, device frame) at `timestamp`; a sample when it
    /// carries acceleration.
    public mutating func add(_ physical: [IIODevice.ChannelType: Vector3], timestamp: Double) -> MotionSample? {
        for (type, vector) in physical where type != .accel { latest[type] = vector }
        guard let accel = physical[.accel], awaited.isSubset(of: latest.keys) else { return nil }
        var merged = latest
        merged[.accel] = accel
        return IIOUnits.sample(timestamp: timestamp, physical: merged, sign: accelerationSign)
    }

    /// Forget held readings (after a reconnect).
    public mutating func reset() { latest = [:] }
}
