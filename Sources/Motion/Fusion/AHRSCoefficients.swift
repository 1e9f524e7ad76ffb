import Foundation

/// Everything `AHRS` derives from its settings and the sample period, computed once (tan, exp)
/// so that a filter step is multiplications and additions only. Recomputed only when the
/// measured sample rate moves by more than 10 %.
struct AHRSCoefficients: Hashable, Sendable {
    /// The sample period these were computed for, s.
    var samplePeriod: Double
    /// The corrections run on every n-th sample (see `AHRSSettings.correctionRate`).
    var correctionStride: Int
    var acceleration: SecondOrderLowPassCoefficients
    /// The fast-rotation acceleration low-pass; nil when switched off.
    var fastAcceleration: SecondOrderLowPassCoefficients?
    /// 1/ω_fast², (rad/s)⁻²: the fast low-pass weighs E/(E + ω_fast²) for a mean squared rate E.
    var fastRotationRateSquared: Double
    var rest: RestDetector.Coefficients
    var magnetic: MagneticDisturbanceDetector.Coefficients
    var heading: HeadingCorrection.Coefficients
    var bias: GyroBiasEstimator.Coefficients
    /// Per-sample gain of the mean squared rotation rate.
    var rotationEnergyGain: Double

    init(_ s: AHRSSettings, samplePeriod: Double) {
        self.samplePeriod = samplePeriod
        correctionStride = max(1, Int((1 / (s.correctionRate * samplePeriod)).rounded()))
        // everything below runs once per correction step
        let dt = samplePeriod * Double(correctionStride)
        acceleration = SecondOrderLowPassCoefficients(timeConstant: s.accelerationTimeConstant, samplePeriod: dt)
        fastAcceleration = s.fastRotationAccelerationTimeConstant > 0
            ? SecondOrderLowPassCoefficients(timeConstant: s.fastRotationAccelerationTimeConstant, samplePeriod: dt) : nil
        fastRotationRateSquared = square(s.fastRotationRate)
        rest = RestDetector.Coefficients(s, samplePeriod: dt)
        magnetic = MagneticDisturbanceDetector.Coefficients(s, samplePeriod: dt)
        heading = HeadingCorrection.Coefficients(s, samplePeriod: dt)
        bias = GyroBiasEstimator.Coefficients(s, samplePeriod: dt)
        rotationEnergyGain = Self.gain(timeConstant: s.rotationEnergyTimeConstant, samplePeriod: dt)
    }

    /// The gain of a first-order low-pass with time constant τ (s) at period dt (s); τ ≤ 0 means no filtering.
    static func gain(timeConstant tau: Double, samplePeriod dt: Double) -> Double {
        tau <= 0 ? 1 : 1 - exp(-dt / tau)
    }
}
