import Foundation

/// The accelerometer-only estimator Apple's 2010 CoreMotionTeapot compares device motion
/// against: gravity is the low-pass filtered acceleration, user acceleration the rest, roll and
/// pitch follow from that gravity and yaw stays 0 (an accelerometer cannot see it).
///
/// The low-pass is Apple's timestamp-based first-order filter (AccelerometerFilter.m in the
/// CoreMotionTeapot sample, WWDC 2010 session 423): `RC = 1/fc`, `α = dt/(dt + RC)`,
/// `y ← α·x + (1 − α)·y` (Apple's `RC = 1/fc`, not the 1/(2π·fc) of an RC circuit, so a cut-off
/// means what it meant in the teapot). User acceleration is the complementary
/// high-pass `x − gravity`, so `gravity + userAcceleration` is the measured acceleration.
public struct AccelerometerAttitudeEstimator: DeviceMotionEstimator {
    /// Cut-off of the gravity low-pass, Hz (Apple's `RC = 1/fc` convention).
    public var cutoffFrequency: Double
    public let referenceFrame = AttitudeReferenceFrame.xArbitraryZVertical
    public var rejections: SampleRejectionCounts { validator.rejections }

    private var validator: SampleValidator
    /// Low-pass filtered acceleration, g (not normalised).
    private var filtered = Vector3.zero

    public init(cutoffFrequency: Double = 2, limits: SampleLimits = .default) {
        self.cutoffFrequency = cutoffFrequency
        self.validator = SampleValidator(limits: limits)
    }

    public mutating func reset() { validator.reset(); filtered = .zero }

    public mutating func update(_ sample: MotionSample) -> DeviceMotion? {
        switch validator.check(sample) {
        case .reject: return nil
        case .restart: filtered = sample.acceleration
        case .accept(let dt):
            let rc = 1 / cutoffFrequency
            let alpha = dt / (dt + rc)
            filtered = sample.acceleration * alpha + filtered * (1 - alpha)
        }
        // A free fall (|a| ≈ 0) has no gravity direction: keep face-up until there is one.
        let gravity = filtered.lengthSquared > 1e-12 ? filtered.normalized : Vector3(0, 0, -1)
        let attitude = Self.attitude(gravity: gravity)
        return DeviceMotion(timestamp: sample.timestamp, attitude: attitude,
                            rotationRate: sample.rotationRate ?? .zero, gravity: attitude.gravity,
                            userAcceleration: sample.acceleration - attitude.gravity,
                            magneticField: sample.magneticField.map {
                                CalibratedMagneticField(field: $0, accuracy: .uncalibrated)
                            } ?? .uncalibrated,
                            heading: -1)
    }

    /// Core Motion's roll and pitch from a unit gravity (pitch = asin(−g.y), roll = atan2(g.x, −g.z)), yaw 0.
    static func attitude(gravity g: Vector3) -> Attitude {
        Attitude(roll: atan2(g.x, -g.z), pitch: asin(max(-1, min(1, -g.y))), yaw: 0)
    }
}
