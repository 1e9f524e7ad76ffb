import CSDL2
import Motion

/// Joins SDL's separate gyro and accelerometer events into one `MotionSample` per reading.
///
/// SDL sends one event per sensor per reading (a Switch report yields three of each), the gyro
/// first, both with the same `timestamp_us` when the hardware has a clock (INPUT_FACTS §7). A
/// sample is emitted when the accelerometer event arrives, with the gyro of the same timestamp
/// (or, without hardware timestamps, the latest gyro). Device µs are anchored to host time at the
/// first event and re-anchored when the two disagree by more than a second (reconnects, gaps).
public struct SDLSensorPairing: Sendable {
    private var gyro: (value: Vector3, timestamp: UInt64)?
    private var anchor: Double?
    private var lastTime: Double?

    public init() {}

    /// Feeds one sensor reading (`sensor` is an `SDL_SensorType` raw value).
    public mutating func add(sensor: Int32, data: SIMD3<Float>, timestampMicroseconds: UInt64, hostTime: Double) -> MotionSample? {
        switch sensor {
        case SDL_SENSOR_GYRO.rawValue:
            gyro = (SDLSensorConversion.rotationRate(data), timestampMicroseconds)
            return nil
        case SDL_SENSOR_ACCEL.rawValue:
            let rotation = gyro.flatMap { timestampMicroseconds == 0 || $0.timestamp == timestampMicroseconds ? $0.value : nil }
            return MotionSample(timestamp: time(timestampMicroseconds, hostTime: hostTime),
                                acceleration: SDLSensorConversion.acceleration(data), rotationRate: rotation)
        default:
            return nil  // ACCEL_L/GYRO_L etc. of combined Joy-Cons: the combined pair reports ACCEL/GYRO too.
        }
    }

    public mutating func reset() {
        gyro = nil
        anchor = nil
        lastTime = nil
    }

    private mutating func time(_ microseconds: UInt64, hostTime: Double) -> Double {
        var t = hostTime
        if microseconds != 0 {
            let device = Double(microseconds) * 1e-6
            if anchor == nil || abs(hostTime - (anchor! + device)) > 1 { anchor = hostTime - device }
            t = anchor! + device
        }
        if let last = lastTime, t <= last { t = last + 1e-6 }
        lastTime = t
        return t
    }
}
