/// The 9D step: a rotation by δ about the vertical that turns the 6D attitude's horizontal
/// magnetic field towards north (VQF, Laidig & Seel 2023: heading is a separate scalar state so a
/// disturbed magnetometer can never tilt the attitude).
///
/// δ is kept as the half-angle unit complex number (cos δ/2, sin δ/2), i.e. the quaternion
/// Rz(δ) itself, so applying and updating it needs no trigonometry.
struct HeadingCorrection: Hashable, Sendable {
    /// What the correction needs from `AHRSSettings`, precomputed.
    struct Coefficients: Hashable, Sendable {
        /// Per-sample gain at rest, 1 − exp(−dt/τ).
        var gain: Double
        /// How long the start-up's running mean lasts, s (`AHRSSettings.magneticStartupTime`, at most τ).
        var startupTime: Double
        /// s.
        var maximumRejectionTime: Double
        var rejectionFactor: Double
        /// s.
        var timeConstant: Double

        init(_ s: AHRSSettings, samplePeriod: Double) {
            gain = AHRSCoefficients.gain(timeConstant: s.magneticTimeConstant, samplePeriod: samplePeriod)
            timeConstant = s.magneticTimeConstant
            startupTime = min(s.magneticStartupTime, s.magneticTimeConstant)
            maximumRejectionTime = s.magneticMaximumRejectionTime
            rejectionFactor = s.magneticRejectionFactor
        }
    }

    /// Rz(δ): earth-frame rotation applied after the 6D attitude.
    private(set) var rotation = Quaternion.identity
    /// Gain floor 1/N for the first N updates, so the heading converges at once (a running mean), until 1/N < dt/startupTime.
    private var initialGain = 1.0
    /// Time spent coasting on the gyro because of a disturbance, s (starts full: no reference yet).
    private var rejectionTime: Double
    /// Last disagreement between the magnetometer's heading and δ, rad.
    private(set) var disagreement = 0.0

    init(maximumRejectionTime: Double) { rejectionTime = maximumRejectionTime }

    /// δ in radians, −π...π.
    var angle: Double { 2 * FastMath.atan2(rotation.z, rotation.w) }

    /// - Parameters: m the field in the 6D earth frame (x east, y north, z up), disturbed from the detector, dt s.
    @inline(__always)
    mutating func update(earthField m: Vector3, disturbed: Bool, dt: Double, _ co: Coefficients) {
        guard let error = angleFromNorth(m) else { return }
        disagreement = error

        var k = co.gain
        if disturbed {
            if rejectionTime <= co.maximumRejectionTime {
                rejectionTime += dt
                k = 0
            } else {
                k /= co.rejectionFactor
            }
        } else {
            rejectionTime = max(rejectionTime - co.rejectionFactor * dt, 0)
        }
        if initialGain != 0 {
            k = max(k, initialGain)
            initialGain = initialGain / (initialGain + 1)
            if initialGain * co.startupTime < dt { initialGain = 0 }
        }
        if k == 0 { return }
        turn(by: k * error)
    }

    /// Turns δ towards the north of `m` (6D earth frame) as `duration` s of undisturbed updates would:
    /// a whole turn's average of a field that rides along (`TurnAveragedField`), while the field itself coasts;
    /// at least `minimumGain` of the way (the turn's share of the angles the heading's field was seen over).
    mutating func correct(towards m: Vector3, over duration: Double, atLeast minimumGain: Double, _ co: Coefficients) {
        guard let error = angleFromNorth(m) else { return }
        turn(by: max(AHRSCoefficients.gain(timeConstant: co.timeConstant, samplePeriod: duration), minimumGain) * error)
    }

    /// The angle of `m` turned by the current δ from north, towards east, rad; nil for a vertical field.
    @inline(__always)
    private func angleFromNorth(_ m: Vector3) -> Double? {
        let c = rotation.w * rotation.w - rotation.z * rotation.z
        let sn = 2 * rotation.w * rotation.z
        let east = c * m.x - sn * m.y
        let north = sn * m.x + c * m.y
        if east == 0 && north == 0 { return nil }
        return FastMath.atan2(east, north)
    }

    private mutating func turn(by angle: Double) {
        rotation = FastMath.renormalized(FastMath.product(FastMath.rotation(rate: Vector3(0, 0, angle), dt: 1), rotation))
    }
}
