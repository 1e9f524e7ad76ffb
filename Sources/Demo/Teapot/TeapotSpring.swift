import Engine
import Motion

/// Translation mode's rubber band: user acceleration, low-passed at 10 Hz as in Apple's
/// CoreMotionTeapot (`kUserAccelerationLpfCutoffFrequency 10.0`; α = dt / (dt + 1/fc)), drives a
/// damped spring that pulls the teapot back to the centre. The teapot lags the device: push the
/// device right and the teapot swings left, then settles.
public struct TeapotSpring: Sendable {
    /// Natural frequency of the spring, Hz.
    public var frequency: Double = 3
    /// Damping ratio (1 = critical; below 1 it overshoots a little, like a rubber band).
    public var dampingRatio: Double = 0.35
    /// World units of displacement per g of steady user acceleration.
    public var unitsPerG: Double = 4
    /// The offset never exceeds this many world units, however violent the input.
    public var maximumOffset: Double = 4
    /// Cut-off of the user-acceleration low-pass, Hz.
    public var lowPassCutoff: Double = 10

    /// Current displacement from the centre and its velocity, world units and units/s.
    public private(set) var offset = Vector3.zero
    public private(set) var velocity = Vector3.zero
    /// The low-passed user acceleration in the world frame, g.
    public private(set) var filteredAcceleration = Vector3.zero
    private var lastTimestamp: Double?

    public init() {}

    /// Feeds one pulled sample: `userAcceleration` in g in the device frame, `attitude` to bring it
    /// into the world frame. Samples with the same or an older timestamp, or non-finite values, are ignored.
    public mutating func observe(userAcceleration: Vector3, attitude: Attitude, timestamp: Double) {
        guard userAcceleration.isFinite, timestamp.isFinite else { return }
        let world = attitude.quaternion.rotate(userAcceleration)
        guard let last = lastTimestamp else {
            lastTimestamp = timestamp
            filteredAcceleration = world
            return
        }
        let dt = timestamp - last
        guard dt > 0 else { return }
        lastTimestamp = timestamp
        let alpha = dt / (dt + 1 / lowPassCutoff)
        filteredAcceleration = world * alpha + filteredAcceleration * (1 - alpha)
    }

    /// Advances the spring by `dt` seconds in fixed sub-steps (stable for any frame time).
    public mutating func step(dt: Double) {
        guard dt > 0, dt.isFinite else { return }
        let omega = 2 * Double.pi * frequency
        let steps = Int((dt / 0.002).rounded(.up))
        let h = dt / Double(steps)
        let drive = filteredAcceleration * (-unitsPerG * omega * omega)
        for _ in 0..<steps {
            let accel = drive - offset * (omega * omega) - velocity * (2 * dampingRatio * omega)
            velocity += accel * h
            offset += velocity * h
        }
        if offset.length > maximumOffset {
            offset = offset.normalized * maximumOffset
            velocity = .zero
        }
        if !offset.isFinite || !velocity.isFinite { reset() }
    }

    /// Back to rest at the centre.
    public mutating func reset() {
        offset = .zero
        velocity = .zero
        filteredAcceleration = .zero
        lastTimestamp = nil
    }
}
