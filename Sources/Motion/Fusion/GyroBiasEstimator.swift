/// Estimates the gyroscope bias with a three-state Kalman filter, at rest and in motion, after
/// VQF (Laidig & Seel 2023, section 3.3; reference code github.com/dlaidig/vqf, MIT):
/// - at rest the measurement is the low-passed rotation rate itself;
/// - in motion it is the inclination correction: whatever rotation the accelerometer had to undo in
///   the earth frame is bias seen through the (low-passed) attitude, R·b. The vertical component is
///   unobservable from gravity and only weakly pulled towards its current value.
///
/// Differences from VQF: the filter runs at `biasUpdateRate` with the corrections of the steps
/// in between summed (the bias changes over minutes, so nothing is
/// lost), which makes it cheap enough to run on every device.
///
/// Covariances are kept in (0.01 °/s)², as VQF does, so that the numbers stay near 1.
struct GyroBiasEstimator: Sendable {
    struct Coefficients: Hashable, Sendable {
        /// Samples per estimator step.
        var stride: Int
        /// Largest bias, rad/s.
        var limit: Double
        /// Period of one estimator step, s.
        var period: Double
        /// Period of one sample, s.
        var samplePeriod: Double
        var lowPass: SecondOrderLowPassCoefficients
        var initialCovariance: Double
        var processNoise: Double
        var motionNoise: Double
        var verticalNoise: Double
        var restNoise: Double

        init(_ s: AHRSSettings, samplePeriod: Double) {
            self.samplePeriod = samplePeriod
            stride = max(1, Int((1 / (s.biasUpdateRate * samplePeriod)).rounded()))
            limit = s.biasLimit
            period = samplePeriod * Double(stride)
            lowPass = SecondOrderLowPassCoefficients(timeConstant: s.accelerationTimeConstant, samplePeriod: period)
            let toCentiDegrees = 180 * 100 / Double.pi
            initialCovariance = square(s.biasInitialUncertainty * toCentiDegrees)
            // the variance grows from 0 to (0.1 °/s)² in biasForgettingTime seconds
            processNoise = square(0.1 * 100) * period / s.biasForgettingTime
            let motion = square(s.biasMotionUncertainty * toCentiDegrees)
            motionNoise = square(motion) / processNoise + motion
            verticalNoise = motionNoise / max(s.biasVerticalForgettingFactor, 1e-10)
            let rest = square(s.biasRestUncertainty * toCentiDegrees)
            restNoise = square(rest) / processNoise + rest
        }
    }

    /// Estimated bias, rad/s.
    private(set) var bias = Vector3.zero
    private var covariance = Matrix3.diagonal(0)
    private var rotationLowPass = (SecondOrderLowPass3(), SecondOrderLowPass3(), SecondOrderLowPass3())
    private var rotatedBiasLowPass = SecondOrderLowPass3()
    private var started = false
    /// x/y of the normalised earth-frame gravity before each inclination correction (≈ the
    /// correction angle in rad, about y and −x), summed since the last step.
    private var correctionSum = Vector3.zero
    private var samplesSinceStep = 0

    /// Standard deviation of the estimate, rad/s (largest Gershgorin bound, as VQF).
    var uncertainty: Double {
        let m = covariance.m
        let bound = max(abs(m.0) + abs(m.1) + abs(m.2), abs(m.3) + abs(m.4) + abs(m.5), abs(m.6) + abs(m.7) + abs(m.8))
        return bound.squareRoot() * Double.pi / (180 * 100)
    }

    mutating func reset(_ c: Coefficients) {
        self = GyroBiasEstimator()
        covariance = .diagonal(c.initialCovariance)
    }

    /// Keeps the bias but restarts its low-passes (after a gap the attitude starts afresh).
    mutating func restartAttitude() {
        started = false
        correctionSum = .zero
        samplesSinceStep = 0
    }

    /// Records one inclination correction: `tilt` is the normalised earth-frame specific force
    /// (x, y, ·) that the correction then rotated onto the vertical.
    @inline(__always)
    mutating func accumulate(tilt: Vector3) {
        correctionSum += tilt
        samplesSinceStep += 1
    }

    /// Whether enough samples were accumulated for the next step.
    @inline(__always)
    func isDue(_ c: Coefficients) -> Bool { samplesSinceStep >= c.stride }

    /// One Kalman step. `attitude` is the 6D device → earth quaternion; `restRate` the low-passed
    /// rotation rate (rad/s), used when `atRest`.
    mutating func step(attitude: Quaternion, atRest: Bool, restRate: Vector3, _ c: Coefficients) {
        let limit = c.limit
        let r = Matrix3(rotating: attitude)
        let rb = r * bias
        if !started {
            rotationLowPass.0.start()
            rotationLowPass.1.start()
            rotationLowPass.2.start()
            rotatedBiasLowPass.start()
            started = true
        }
        let rLow = Matrix3(rows: rotationLowPass.0.filter(r.row0, c.lowPass),
                           rotationLowPass.1.filter(r.row1, c.lowPass),
                           rotationLowPass.2.filter(r.row2, c.lowPass))
        let rbLow = rotatedBiasLowPass.filter(rb, c.lowPass)
        let tilt = correctionSum / (Double(max(samplesSinceStep, 1)) * c.samplePeriod)
        correctionSum = .zero
        samplesSinceStep = 0

        // P ← P + V until it reaches its initial size
        var p = covariance
        if p.m.0 < c.initialCovariance { p.m.0 += c.processNoise }
        if p.m.4 < c.initialCovariance { p.m.4 += c.processNoise }
        if p.m.8 < c.initialCovariance { p.m.8 += c.processNoise }

        let h: Matrix3
        var e: Vector3
        let w: Vector3
        if atRest {
            h = .diagonal(1)
            e = restRate - bias
            w = Vector3(c.restNoise, c.restNoise, c.restNoise)
        } else {
            h = rLow
            let hb = rLow * bias
            e = Vector3(-tilt.y + rbLow.x - hb.x, tilt.x + rbLow.y - hb.y, -hb.z)
            w = Vector3(c.motionNoise, c.motionNoise, c.verticalNoise)
        }
        // a large disagreement (the first correction, a knock) must not throw the bias far
        e = Vector3(clamp(e.x, limit), clamp(e.y, limit), clamp(e.z, limit))

        let pht = p * h.transposed
        let gain = pht * (h * pht).addingDiagonal(w).inverse
        bias += gain * e
        p = p - gain * (h * p)
        covariance = p
        bias = Vector3(clamp(bias.x, limit), clamp(bias.y, limit), clamp(bias.z, limit))
    }
}

@inline(__always) func square(_ x: Double) -> Double { x * x }
@inline(__always) func clamp(_ x: Double, _ limit: Double) -> Double { min(max(x, -limit), limit) }
