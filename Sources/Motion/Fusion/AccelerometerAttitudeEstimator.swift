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

    public mutating func update(_ sample: borrowing MotionSample, into motion: inout DeviceMotion) -> Bool {
        switch validator.check(sample) {
        case .reject: return false
        case .restart: filtered = sample.acceleration
        case .accept(let dt):
            let rc = 1 / cutoffFrequency
            let alpha = dt / (dt + rc)
            filtered = sample.acceleration * alpha + filtered * (1 - alpha)
        }
        // A free fall (|a| ≈ 0) has no gravity direction: keep face-up until there is one.
        let gravity = filtered.lengthSquared > 1e-12 ? filtered.normalized : Vector3(0, 0, -1)
        motion.timestamp = sample.timestamp
        motion.attitude = Self.attitude(gravity: gravity)
        motion.rotationRate = sample.rotationRate ?? Vector3(0, 0, 0)
        motion.gravity = gravity
        motion.userAcceleration = sample.acceleration - gravity
        motion.magneticField = CalibratedMagneticField(field: sample.magneticField ?? Vector3(0, 0, 0), accuracy: .uncalibrated)
        motion.heading = -1
        return true
    }

    /// Core Motion's attitude for a unit gravity with yaw 0: q = Rx(pitch)·Ry(roll) with
    /// pitch = asin(−g.y), roll = atan2(g.x, −g.z), built from half-angle formulas (no trigonometry):
    /// q = (cp·cr, sp·cr, cp·sr, sp·sr) with cp, sp, cr, sr the cosines and sines of the half angles.
    static func attitude(gravity g: Vector3) -> Attitude {
        let cosPitch = (g.x * g.x + g.z * g.z).squareRoot()  // ≥ 0: pitch is within ±90°
        let cp = ((1 + cosPitch) * 0.5).squareRoot()
        let sp = -g.y / (2 * cp)
        var cr = 1.0, sr = 0.0  // roll is undefined with the y axis vertical: take 0
        if cosPitch > 1e-12 {
            let cosRoll = -g.z / cosPitch, sinRoll = g.x / cosPitch
            if cosRoll >= 0 {
                cr = ((1 + cosRoll) * 0.5).squareRoot()
                sr = sinRoll / (2 * cr)
            } else {  // near ±180° the other half-angle formula stays accurate
                sr = (sinRoll < 0 ? -1 : 1) * ((1 - cosRoll) * 0.5).squareRoot()
                cr = sinRoll / (2 * sr)
            }
        }
        return Attitude(quaternion: Quaternion(w: cp * cr, x: sp * cr, y: cp * sr, z: sp * sr))
    }
}
