/// Decides when the device lies still: the rotation rate and the acceleration must both stay
/// close to their own low-pass for `restMinimumDuration` (the approach of VQF, Laidig & Seel 2023,
/// section on rest detection). At rest the low-passed rotation rate *is* the gyro bias.
struct RestDetector: Hashable, Sendable {
    /// What rest detection needs from `AHRSSettings`, precomputed.
    struct Coefficients: Hashable, Sendable {
        var lowPass: SecondOrderLowPassCoefficients
        /// Squared thresholds, (rad/s)² and g².
        var rotationRateThresholdSquared: Double
        var accelerationThresholdSquared: Double
        /// rad/s; a low-passed rate beyond it cannot be bias.
        var biasLimit: Double
        /// s.
        var minimumDuration: Double

        init(_ s: AHRSSettings, samplePeriod: Double) {
            lowPass = SecondOrderLowPassCoefficients(timeConstant: s.restFilterTimeConstant, samplePeriod: samplePeriod)
            rotationRateThresholdSquared = square(s.restRotationRateThreshold)
            accelerationThresholdSquared = square(s.restAccelerationThreshold)
            biasLimit = s.biasLimit
            minimumDuration = s.restMinimumDuration
        }
    }

    private var gyroLowPass = SecondOrderLowPass3()
    private var accelerationLowPass = SecondOrderLowPass3()
    /// How long the device has been still, s.
    private(set) var stillTime = 0.0
    private(set) var isAtRest = false

    /// The low-passed rotation rate, rad/s (the bias estimate while at rest).
    var meanRotationRate: Vector3 { gyroLowPass.value }

    mutating func start() {
        gyroLowPass.start()
        accelerationLowPass.start()
        stillTime = 0
        isAtRest = false
    }

    /// - Parameters: gyro rad/s, acceleration g, dt s.
    @inline(__always)
    mutating func update(gyro: Vector3, acceleration: Vector3, dt: Double,
                         _ c: Coefficients) {
        let gyroMean = gyroLowPass.filter(gyro, c.lowPass)
        let accelerationMean = accelerationLowPass.filter(acceleration, c.lowPass)
        let limit = c.biasLimit
        let moving = (gyro - gyroMean).lengthSquared >= c.rotationRateThresholdSquared
            || (acceleration - accelerationMean).lengthSquared >= c.accelerationThresholdSquared
            || abs(gyroMean.x) > limit || abs(gyroMean.y) > limit || abs(gyroMean.z) > limit
        if moving {
            stillTime = 0
            isAtRest = false
        } else {
            stillTime += dt
            if stillTime >= c.minimumDuration { isAtRest = true }
        }
    }
}
