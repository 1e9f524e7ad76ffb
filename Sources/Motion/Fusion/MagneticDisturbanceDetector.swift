/// Tells a disturbed magnetic field (a magnet, a steel table, a motor) from the earth's field by
/// its strength (norm) and dip angle in the earth frame, compared with a reference learned from
/// the field itself (VQF, Laidig & Seel 2023, section 3.4: the reference is the first field that
/// stays steady while the device turns; a new steady field replaces it after a longer time).
struct MagneticDisturbanceDetector: Hashable, Sendable {
    /// What the detector needs from `AHRSSettings`, precomputed (see the settings for meanings).
    struct Coefficients: Hashable, Sendable {
        var currentLowPass: SecondOrderLowPassCoefficients
        /// Per-sample gain of the reference following the field.
        var referenceGain: Double
        var normThreshold: Double
        /// rad.
        var dipThreshold: Double
        /// s.
        var newFieldTime: Double
        var firstFieldTime: Double
        var minimumUndisturbedTime: Double
        /// (rad/s)².
        var newFieldMinimumRotationRateSquared: Double

        init(_ s: AHRSSettings, samplePeriod: Double) {
            currentLowPass = SecondOrderLowPassCoefficients(timeConstant: s.magneticCurrentTimeConstant, samplePeriod: samplePeriod)
            referenceGain = AHRSCoefficients.gain(timeConstant: s.magneticReferenceTimeConstant, samplePeriod: samplePeriod)
            normThreshold = s.magneticNormThreshold
            dipThreshold = s.magneticDipThreshold
            newFieldTime = s.magneticNewFieldTime
            firstFieldTime = s.magneticFirstFieldTime
            minimumUndisturbedTime = s.magneticMinimumUndisturbedTime
            newFieldMinimumRotationRateSquared = square(s.magneticNewFieldMinimumRotationRate)
        }
    }

    /// Learned reference strength, µT (0 until a reference exists).
    private(set) var referenceNorm = 0.0
    /// Learned reference dip, rad (positive when the field points down, as in the northern hemisphere).
    private(set) var referenceDip = 0.0
    private(set) var isDisturbed = true
    private var undisturbedTime = 0.0
    private var candidateNorm = -1.0
    private var candidateDip = 0.0
    private var candidateTime = 0.0
    private var current = SecondOrderLowPass3()
    private var currentStarted = false

    var hasReference: Bool { referenceNorm > 0 }

    /// Forgets the current field's low-pass (after a gap); the reference is kept.
    mutating func restart() { currentStarted = false; candidateTime = 0; undisturbedTime = 0 }

    /// - Parameters: field in the 6D earth frame (µT), dt s, rotationRate the low-passed gyro (rad/s).
    @inline(__always)
    mutating func update(earthField m: Vector3, dt: Double, rotationRate: Vector3, _ c: Coefficients) {
        let k = c.referenceGain
        let horizontal = (m.x * m.x + m.y * m.y).squareRoot()
        let sample = Vector3(m.length, FastMath.atan2(-m.z, horizontal), 0)
        if !currentStarted { current.start(); currentStarted = true }
        let normDip = current.filter(sample, c.currentLowPass)
        let norm = normDip.x, dip = normDip.y

        if abs(norm - referenceNorm) < c.normThreshold * referenceNorm
            && abs(dip - referenceDip) < c.dipThreshold {
            undisturbedTime += dt
            if undisturbedTime >= c.minimumUndisturbedTime {
                isDisturbed = false
                referenceNorm += k * (norm - referenceNorm)
                referenceDip += k * (dip - referenceDip)
            }
        } else {
            undisturbedTime = 0
            isDisturbed = true
        }

        // A field that stays steady while the device turns becomes the new reference.
        if abs(norm - candidateNorm) < c.normThreshold * candidateNorm
            && abs(dip - candidateDip) < c.dipThreshold {
            if rotationRate.lengthSquared >= c.newFieldMinimumRotationRateSquared {
                candidateTime += dt
            }
            candidateNorm += k * (norm - candidateNorm)
            candidateDip += k * (dip - candidateDip)
            if isDisturbed && (candidateTime >= c.newFieldTime
                               || (referenceNorm == 0 && candidateTime >= c.firstFieldTime)) {
                referenceNorm = candidateNorm
                referenceDip = candidateDip
                isDisturbed = false
                undisturbedTime = c.minimumUndisturbedTime
            }
        } else {
            candidateTime = 0
            candidateNorm = norm
            candidateDip = dip
        }
    }
}
