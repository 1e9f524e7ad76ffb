/// Estimates the gyroscope's bias and per-axis scale error with a six-state Kalman filter, at
/// rest and in motion. The bias part follows VQF (Laidig & Seel 2023, section 3.3; reference code
/// github.com/dlaidig/vqf, MIT):
/// - at rest the measurement is the low-passed rotation rate itself;
/// - in motion it is the inclination correction: whatever rotation the accelerometer had to undo in
///   the earth frame is gyro error seen through the (low-passed) attitude, R·b, in its two
///   horizontal components. (Gravity cannot see the vertical one; VQF adds a pseudo-measurement
///   10⁴ times weaker for it, which changed nothing measurable here — BROAD and the Core Motion
///   recordings to 0.01° — so it is left out.)
///
/// Beyond VQF, the same measurement carries the scale error: a gyro reading ω_m = (1 + s)·ω + b
/// turns the earth frame by R·(b + diag(ω)·s) too much, so with the low-passed R·diag(ω) in H the
/// filter learns s wherever an axis turns fast while not vertical. A scale error of 0.4 % at
/// 1000 °/s is 4 °/s of drift — ten times a typical bias — which, unmodelled, the bias estimate
/// would absorb in the wrong place. What gravity cannot see stays unlearned: an axis that only
/// ever turns about the vertical, and rotation back and forth that the low-passes average out.
/// The axes' scale errors start correlated (`gyroScaleCorrelation`): an axis gravity never sees
/// turning, which is the one that turns about the vertical and so drifts the heading, takes part of
/// what the other axes showed instead of staying at zero.
/// On BROAD's ten trials (with its gyro delay) this lowers the inclination error from 0.67° to
/// 0.51° and the 6D heading-corrected error from 2.63° to 1.58° (`tiltkit bench accuracy`, with and without).
///
/// A gyro's axes are also not quite perpendicular: each reads a little of the rotation about the
/// others (cross-axis sensitivity, a few tenths of a percent). That error tilts the earth frame in
/// the same inclination corrections, and in fast rotation about several axes at once it looks
/// enough like a scale error that a model without it credits it to the scale — on BROAD's fast
/// combined trial the scale learned there was off by 0.1–0.3 % and drifted the 6D heading 9° in a
/// minute. The coupling's symmetric part (the axes' non-orthogonality; the antisymmetric part is a
/// rotation of the whole triad, which attitude does not see) is therefore a *considered* state
/// (Schmidt–Kalman): its uncertainty (`gyroCrossAxisUncertainty`) enters the covariance and the
/// gains, so the filter credits the scale only with what the coupling cannot explain, but it is
/// never estimated or applied: learned, it was unobservable where a device turns about the
/// vertical and went wrong there (BROAD's attached magnet trial).
///
/// The filter runs at `biasUpdateRate` with the corrections of the steps in between summed.
/// States: bias in 0.01 °/s (as VQF, so that numbers stay near 1), scale error as a fraction;
/// considered: the cross-axis sensitivities xy, xz, yz, as fractions.
struct GyroErrorEstimator: Sendable {
    struct Coefficients: Hashable, Sendable {
        /// Correction steps per estimator step.
        var stride: Int
        /// Largest bias, rad/s.
        var limit: Double
        /// Largest scale error (fraction).
        var scaleLimit: Double
        /// Period of one correction step, s.
        var samplePeriod: Double
        var lowPass: SecondOrderLowPassCoefficients
        var initialCovariance: Double
        var processNoise: Double
        var scaleInitialCovariance: Double
        /// Initial covariance between two axes' scale errors, ρ·σ².
        var scaleInitialCrossCovariance: Double
        var scaleProcessNoise: Double
        /// Variance of each considered cross-axis sensitivity; 0 leaves them out.
        var crossAxisCovariance: Double
        var motionNoise: Double
        var restNoise: Double

        init(_ s: AHRSSettings, samplePeriod: Double) {
            self.samplePeriod = samplePeriod
            stride = max(1, Int((1 / (s.biasUpdateRate * samplePeriod)).rounded()))
            limit = s.biasLimit
            scaleLimit = s.gyroScaleLimit
            let period = samplePeriod * Double(stride)
            lowPass = SecondOrderLowPassCoefficients(timeConstant: s.accelerationTimeConstant, samplePeriod: period)
            let toCentiDegrees = GyroErrorEstimator.toCentiDegrees
            initialCovariance = square(s.biasInitialUncertainty * toCentiDegrees)
            // the variance grows from 0 to (0.1 °/s)² in biasForgettingTime seconds
            processNoise = square(0.1 * 100) * period / s.biasForgettingTime
            scaleInitialCovariance = square(s.gyroScaleInitialUncertainty)
            scaleInitialCrossCovariance = min(max(s.gyroScaleCorrelation, 0), 0.99) * scaleInitialCovariance
            scaleProcessNoise = scaleInitialCovariance * period / s.gyroScaleForgettingTime
            crossAxisCovariance = square(max(s.gyroCrossAxisUncertainty, 0))
            let motion = square(s.biasMotionUncertainty * toCentiDegrees)
            motionNoise = square(motion) / processNoise + motion
            let rest = square(s.biasRestUncertainty * toCentiDegrees)
            restNoise = square(rest) / processNoise + rest
        }
    }

    /// rad/s → 0.01 °/s, the unit of the bias states.
    fileprivate static let toCentiDegrees = 180 * 100 / Double.pi

    /// Estimated bias, rad/s.
    private(set) var bias = Vector3.zero
    /// Estimated scale error per axis: the gyro reads (1 + scale)·ω.
    private(set) var scale = Vector3.zero
    /// 1 − scale, per axis: the corrected rate is gain·ω_m − bias (to first order in the scale).
    private var gain = Vector3(1, 1, 1)
    /// States estimated (bias, scale) and in all (with the considered cross-axis sensitivities).
    private static let estimated = 6, states = 9
    /// The 9×9 covariance of (bias in 0.01 °/s, scale, cross-axis sensitivity), row-major.
    private var covariance = InlineArray<81, Double>(repeating: 0)
    /// The earth x and y rows of R (device → earth) and of R·diag(ω), low-passed like the acceleration.
    private var rotationLowPass = (SecondOrderLowPass3(), SecondOrderLowPass3())
    private var rotatedRateLowPass = (SecondOrderLowPass3(), SecondOrderLowPass3())
    /// The same rows of the cross-axis terms' regressors (`crossRateSum`), low-passed alike.
    private var crossRateLowPass = (SecondOrderLowPass3(), SecondOrderLowPass3())
    /// The earth-frame rate the estimate corrected, R·b + R·diag(ω)·s, low-passed like the acceleration.
    private var appliedCorrectionLowPass = SecondOrderLowPass3()
    private var started = false
    /// Steps since the low-passes started; the scale is left alone until they run as filters.
    private var stepsSinceStart = 0
    /// x/y of the normalised earth-frame gravity before each inclination correction (≈ the
    /// correction angle in rad, about y and −x), summed since the last step.
    private var correctionSum = Vector3.zero
    private var samplesSinceStep = 0
    /// ∫ R_gyro·diag(ω) dt since the last step (almost-inertial frame), and its duration.
    private var rotatedRateSum = Matrix3.diagonal(0)
    /// ∫ R_gyro·(ω_y, ω_x, 0), R_gyro·(ω_z, 0, ω_x), R_gyro·(0, ω_z, ω_y) dt as columns: what a
    /// cross-axis sensitivity xy, xz, yz of 1 would turn the almost-inertial frame by.
    private var crossRateSum = Matrix3.diagonal(0)
    private var rateDuration = 0.0

    /// Standard deviation of the bias estimate, rad/s (largest Gershgorin bound of its block, as VQF).
    var uncertainty: Double {
        let p = covariance
        let bound = max(abs(p[0]) + abs(p[1]) + abs(p[2]), abs(p[9]) + abs(p[10]) + abs(p[11]),
                        abs(p[18]) + abs(p[19]) + abs(p[20]))
        return bound.squareRoot() / Self.toCentiDegrees
    }

    mutating func reset(_ c: Coefficients) {
        self = GyroErrorEstimator()
        let n = Self.states
        for i in 0..<3 {
            covariance[(n + 1) * i] = c.initialCovariance
            for j in 0..<3 { covariance[n * (i + 3) + j + 3] = i == j ? c.scaleInitialCovariance : c.scaleInitialCrossCovariance }
            covariance[(n + 1) * (i + 6)] = c.crossAxisCovariance
        }
    }

    /// Keeps the bias but restarts its low-passes (after a gap the attitude starts afresh).
    mutating func restartAttitude() {
        started = false
        correctionSum = .zero
        samplesSinceStep = 0
        rotatedRateSum = .diagonal(0)
        crossRateSum = .diagonal(0)
        rateDuration = 0
    }

    /// The rotation rate corrected for bias and scale, rad/s.
    @inline(__always)
    func corrected(_ gyro: Vector3) -> Vector3 {
        Vector3(gyro.x * gain.x - bias.x, gyro.y * gain.y - bias.y, gyro.z * gain.z - bias.z)
    }

    /// Every correction step: adds R·diag(∫ω dt), R the gyro attitude (device → almost-inertial) at
    /// the end of the window, `rotation` the window's per-axis sum of rate × period (rad), `dt` its
    /// duration. Taking R once per window is exact for an axis turning about itself (the case that
    /// reveals its scale); the other axes' terms circle and average out either way.
    @inline(__always)
    mutating func accumulate(attitude q: Quaternion, rotation rate: Vector3, dt: Double) {
        let (w, x, y, z) = (q.w, q.x, q.y, q.z)
        let xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z
        let ax = 2 * rate.x, ay = 2 * rate.y, az = 2 * rate.z
        // R's columns, halved (the rates are doubled): each against its own axis's rotation for the
        // scale, against the other axes' for the cross-axis terms
        let c0 = Vector3(0.5 - yy - zz, xy + wz, xz - wy), c1 = Vector3(xy - wz, 0.5 - xx - zz, yz + wx)
        let c2 = Vector3(xz + wy, yz - wx, 0.5 - xx - yy)
        rotatedRateSum.m.0 += c0.x * ax; rotatedRateSum.m.1 += c1.x * ay; rotatedRateSum.m.2 += c2.x * az
        rotatedRateSum.m.3 += c0.y * ax; rotatedRateSum.m.4 += c1.y * ay; rotatedRateSum.m.5 += c2.y * az
        rotatedRateSum.m.6 += c0.z * ax; rotatedRateSum.m.7 += c1.z * ay; rotatedRateSum.m.8 += c2.z * az
        let xyColumn = c0 * ay + c1 * ax, xzColumn = c0 * az + c2 * ax, yzColumn = c1 * az + c2 * ay
        crossRateSum.m.0 += xyColumn.x; crossRateSum.m.1 += xzColumn.x; crossRateSum.m.2 += yzColumn.x
        crossRateSum.m.3 += xyColumn.y; crossRateSum.m.4 += xzColumn.y; crossRateSum.m.5 += yzColumn.y
        crossRateSum.m.6 += xyColumn.z; crossRateSum.m.7 += xzColumn.z; crossRateSum.m.8 += yzColumn.z
        rateDuration += dt
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

    /// One Kalman step. `attitude` is the 6D device → earth quaternion, `inclination` its
    /// almost-inertial → earth part; `restRate` the low-passed rotation rate (rad/s), used when `atRest`.
    mutating func step(attitude: Quaternion, inclination: Quaternion, atRest: Bool, restRate: Vector3, _ c: Coefficients) {
        let limit = c.limit
        let r = Matrix3(rotating: attitude)
        // earth x and y rows of R·diag(ω) and of the cross-axis regressors, the window's mean: the
        // inclination's rows times the sums' columns
        let incline = Matrix3(rotating: inclination)
        let perSecond = rateDuration > 0 ? 1 / rateDuration : 0
        func earthRows(_ sum: Matrix3) -> (x: Vector3, y: Vector3) {
            let columns = sum.transposed
            return (Vector3(incline.row0.dot(columns.row0), incline.row0.dot(columns.row1), incline.row0.dot(columns.row2)) * perSecond,
                    Vector3(incline.row1.dot(columns.row0), incline.row1.dot(columns.row1), incline.row1.dot(columns.row2)) * perSecond)
        }
        let (rwX, rwY) = earthRows(rotatedRateSum), (crossX, crossY) = earthRows(crossRateSum)
        rotatedRateSum = .diagonal(0)
        crossRateSum = .diagonal(0)
        rateDuration = 0
        let applied = Vector3(r.row0.dot(bias) + rwX.dot(scale), r.row1.dot(bias) + rwY.dot(scale), 0)
        if !started {
            rotationLowPass.0.start(); rotationLowPass.1.start()
            rotatedRateLowPass.0.start(); rotatedRateLowPass.1.start()
            crossRateLowPass.0.start(); crossRateLowPass.1.start()
            appliedCorrectionLowPass.start()
            started = true
            stepsSinceStart = 0
        }
        stepsSinceStart += 1
        // While the low-passes still average their first inputs (one time constant), H is not yet
        // the model's, and the inclination is still settling: a scale learned then would be wrong.
        let learnsScale = !atRest && stepsSinceStart > c.lowPass.warmUpSamples
        let rLow = (rotationLowPass.0.filter(r.row0, c.lowPass), rotationLowPass.1.filter(r.row1, c.lowPass))
        let rwLow = (rotatedRateLowPass.0.filter(rwX, c.lowPass), rotatedRateLowPass.1.filter(rwY, c.lowPass))
        let crossLow = (crossRateLowPass.0.filter(crossX, c.lowPass), crossRateLowPass.1.filter(crossY, c.lowPass))
        let appliedLow = appliedCorrectionLowPass.filter(applied, c.lowPass)
        let tilt = correctionSum / (Double(max(samplesSinceStep, 1)) * c.samplePeriod)
        correctionSum = .zero
        samplesSinceStep = 0

        // P ← P + V until it reaches its initial size (the considered block stays as it started)
        let n = Self.states, estimated = Self.estimated
        for i in 0..<3 {
            if covariance[(n + 1) * i] < c.initialCovariance { covariance[(n + 1) * i] += c.processNoise }
            if covariance[(n + 1) * (i + 3)] < c.scaleInitialCovariance { covariance[(n + 1) * (i + 3)] += c.scaleProcessNoise }
        }

        // Scalar measurements, one at a time (W is diagonal, so this is the same Kalman update and
        // needs no matrix inverse). Row j of H acts on (bias in 0.01 °/s, scale, cross-axis
        // sensitivity); e is in 0.01 °/s.
        let k = Self.toCentiDegrees
        var h = InlineArray<27, Double>(repeating: 0)
        var e = InlineArray<3, Double>(repeating: 0)
        let count: Int, noise: Double
        if atRest {
            h[0] = 1; h[n + 1] = 1; h[2 * n + 2] = 1
            let error = restRate - bias
            e[0] = clamp(error.x, limit); e[1] = clamp(error.y, limit); e[2] = clamp(error.z, limit)
            count = 3
            noise = c.restNoise
        } else {
            h[0] = rLow.0.x; h[1] = rLow.0.y; h[2] = rLow.0.z
            h[n] = rLow.1.x; h[n + 1] = rLow.1.y; h[n + 2] = rLow.1.z
            // the scale's part as applied, whether observed now or not
            let predicted = (rLow.0.dot(bias) + rwLow.0.dot(scale), rLow.1.dot(bias) + rwLow.1.dot(scale))
            // a large disagreement (the first correction, a knock) must not throw the estimate far:
            // no more than the largest bias and scale error could explain
            var explainable = (limit, limit)
            if learnsScale {
                h[3] = rwLow.0.x * k; h[4] = rwLow.0.y * k; h[5] = rwLow.0.z * k
                h[n + 3] = rwLow.1.x * k; h[n + 4] = rwLow.1.y * k; h[n + 5] = rwLow.1.z * k
                h[6] = crossLow.0.x * k; h[7] = crossLow.0.y * k; h[8] = crossLow.0.z * k
                h[n + 6] = crossLow.1.x * k; h[n + 7] = crossLow.1.y * k; h[n + 8] = crossLow.1.z * k
                explainable.0 += c.scaleLimit * (abs(rwLow.0.x) + abs(rwLow.0.y) + abs(rwLow.0.z))
                explainable.1 += c.scaleLimit * (abs(rwLow.1.x) + abs(rwLow.1.y) + abs(rwLow.1.z))
            }
            e[0] = clamp(-tilt.y + appliedLow.x - predicted.0, explainable.0)
            e[1] = clamp(tilt.x + appliedLow.y - predicted.1, explainable.1)
            count = 2
            noise = c.motionNoise
        }

        // The considered states (Schmidt): their gain is zero, so they stay at zero and their own
        // block of P is left as it is; their covariance with the estimated states is updated as in
        // any Kalman step, and that is what holds the scale back. H's columns that do not apply
        // (the scale's while it is not learned) are zero, as are P's rows and columns of states left
        // out (no cross-axis allowance), so the loops run over every state: fixed bounds compile to
        // straight-line code.
        var dx = InlineArray<6, Double>(repeating: 0)
        // In place and unchecked: the indices stay below n·n by construction; with bounds checks,
        // variable bounds and copies of the 81 entries the step cost 6D 40 instructions a sample (callgrind).
        withUnsafeMutableBytes(of: &covariance) { covarianceBytes in
            withUnsafeBytes(of: h) { hBytes in
                let p = covarianceBytes.baseAddress!.assumingMemoryBound(to: Double.self)
                for j in 0..<count {
                    let row = hBytes.baseAddress!.assumingMemoryBound(to: Double.self) + n * j
                    // innovation against the state updated by the rows before
                    var innovation = e[j] * k
                    for l in 0..<estimated { innovation -= row[l] * dx[l] }
                    var ph = InlineArray<9, Double>(repeating: 0)
                    var variance = noise
                    for i in 0..<n {
                        var sum = 0.0
                        for l in 0..<n { sum += p[n * i + l] * row[l] }
                        ph[i] = sum
                        variance += row[i] * sum
                    }
                    guard variance > 0, variance.isFinite else { continue }
                    let inverse = 1 / variance
                    // one triangle of the estimated states' rows, mirrored so that P stays symmetric
                    for i in 0..<estimated {
                        let gain = ph[i] * inverse
                        dx[i] += gain * innovation
                        for l in i..<n {
                            let updated = p[n * i + l] - gain * ph[l]
                            p[n * i + l] = updated
                            p[n * l + i] = updated
                        }
                    }
                }
            }
        }
        bias += Vector3(dx[0], dx[1], dx[2]) / k
        scale += Vector3(dx[3], dx[4], dx[5])
        bias = Vector3(clamp(bias.x, limit), clamp(bias.y, limit), clamp(bias.z, limit))
        let sl = c.scaleLimit
        scale = Vector3(clamp(scale.x, sl), clamp(scale.y, sl), clamp(scale.z, sl))
        gain = Vector3(1, 1, 1) - scale
    }
}

@inline(__always) func square(_ x: Double) -> Double { x * x }
@inline(__always) func clamp(_ x: Double, _ limit: Double) -> Double { min(max(x, -limit), limit) }
