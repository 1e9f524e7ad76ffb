/// Tells a disturbed magnetic field (a magnet, a steel table, a motor) from the earth's field by
/// its strength (norm) and dip angle in the earth frame, compared with a reference learned from
/// the field itself (VQF, Laidig & Seel 2023, section 3.4: the reference is the first field that
/// stays steady while the device turns; a new steady field replaces it after a longer time).
///
/// Until then, the first field that stays steady for `magneticFirstFieldTime`, turning or not (a
/// device lying still at start-up), is a provisional reference: the heading's start-up already
/// took its north from that field, so a field that strays far from it later (a magnet the device
/// is carried to before it ever turned) is rejected, where without any reference every field would
/// be, and the field the start-up trusted would be corrected towards only at the rejection's gain.
/// The first field steady while turning replaces it (`hasReference` stays false until then).
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
    /// Time the candidate has been steady, turning or not, s.
    private var candidateSteadyTime = 0.0
    /// The reference is the start-up's steady field, not yet one steady while turning.
    private var isProvisional = false
    private var current = SecondOrderLowPass3()
    private var currentStarted = false

    /// Whether a steady field may stand as a provisional reference (at start-up, not where the
    /// heading waits for a proven field to start over from).
    private var allowsProvisional = true

    var hasReference: Bool { referenceNorm > 0 && !isProvisional }

    init() {}

    /// Judges a newly calibrated field afresh: no reference until one is steady while the device turns.
    static func awaitingProvenField() -> Self {
        var detector = Self()
        detector.allowsProvisional = false
        return detector
    }

    /// Forgets the current field's low-pass (after a gap); the reference is kept.
    mutating func restart() { currentStarted = false; candidateTime = 0; candidateSteadyTime = 0; undisturbedTime = 0 }

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
            candidateSteadyTime += dt
            candidateNorm += k * (norm - candidateNorm)
            candidateDip += k * (dip - candidateDip)
            if (isDisturbed || isProvisional) && (candidateTime >= c.newFieldTime
                                                  || (!hasReference && candidateTime >= c.firstFieldTime)) {
                referenceNorm = candidateNorm
                referenceDip = candidateDip
                isDisturbed = false
                isProvisional = false
                undisturbedTime = c.minimumUndisturbedTime
            } else if allowsProvisional && referenceNorm == 0 && candidateSteadyTime >= c.firstFieldTime {
                referenceNorm = candidateNorm
                referenceDip = candidateDip
                isProvisional = true
            }
        } else {
            candidateTime = 0
            candidateSteadyTime = 0
            candidateNorm = norm
            candidateDip = dip
        }
    }
}
