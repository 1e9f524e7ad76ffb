import Motion

/// Joins SDL's separate gyro and accelerometer updates into one `MotionSample` per pad report,
/// never one made from two reports. Pure: tests feed it sequences of updates without SDL.
///
/// SDL delivers each report of a pad as two updates, the gyro then the accelerometer, pushed back
/// to back with the report's sensor time (`timestamp_us`; SDL_hidapi_ps4.c, SDL_hidapi_ps5.c,
/// SDL_hidapi_switch.c and, in SDL ≥ 2.30, linux/SDL_sysjoystick.c at each SYN_REPORT). So:
///
/// - With a sensor time, the two halves of a report are the two updates carrying the same time, in
///   either order; a half whose partner never comes (a lost update) is dropped when an update of
///   another time arrives, rather than joined with the next report's other half.
/// - Without one (`timestampMicroseconds == 0`: drivers without a sensor clock, or a pad whose clock
///   stands at 0), the only thing that tells reports apart is SDL's order: an accelerometer update
///   completes the gyro update received just before it. A lone half is dropped.
/// - Equal times on consecutive reports (a clock that stands still; SDL's evdev route re-reading
///   the node after SYN_DROPPED with the last tick) still give one sample per report: a completed
///   pair is consumed, so the next report's halves start afresh.
///
/// Device µs are anchored to host time at the first sample and re-anchored when the two disagree
/// by more than a second (reconnects, gaps); times are kept strictly increasing.
///
///     var pairing = SDLSensorPairing()
///     _ = pairing.add(.gyro, gyro, timestampMicroseconds: 48_501, hostTime: now)              // nil
///     let sample = pairing.add(.accelerometer, accel, timestampMicroseconds: 48_501, hostTime: now)
public struct SDLSensorPairing: Sendable {
    public enum Sensor: Sendable { case gyro, accelerometer }

    private struct Half: Sendable {
        var sensor: Sensor
        var value: Vector3
        var timestamp: UInt64
    }

    /// The half of a report waiting for its partner.
    private var pending: Half?
    private var anchor: Double?
    private var lastTime: Double?
    /// Updates dropped because their report's other half never came.
    public private(set) var unpaired = 0

    public init() {}

    /// Feeds one update: `value` already in Core Motion's frame and units (g for the accelerometer,
    /// rad/s for the gyro). Returns the report's sample once both halves are in.
    public mutating func add(_ sensor: Sensor, _ value: Vector3, timestampMicroseconds: UInt64, hostTime: Double) -> MotionSample? {
        let half = Half(sensor: sensor, value: value, timestamp: timestampMicroseconds)
        guard let first = pending else {
            pending = half
            return nil
        }
        guard first.sensor != sensor, first.timestamp == timestampMicroseconds,
              timestampMicroseconds != 0 || first.sensor == .gyro else {
            // Not this half's partner: the waiting half lost its own, and this one starts a report.
            unpaired += 1
            pending = half
            return nil
        }
        pending = nil
        let (gyro, accel) = sensor == .gyro ? (value, first.value) : (first.value, value)
        return MotionSample(timestamp: time(timestampMicroseconds, hostTime: hostTime), acceleration: accel, rotationRate: gyro)
    }

    public mutating func reset() {
        pending = nil
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
