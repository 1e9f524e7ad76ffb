import Foundation

/// Everything `AHRS` derives from its settings and the sample period, computed once (tan, exp)
/// so that a filter step is multiplications and additions only. Recomputed only when the
/// measured sample rate moves by more than 10 %.
struct AHRSCoefficients: Hashable, Sendable {
    /// The sample period these were computed for, s.
    var samplePeriod: Double
    var acceleration: SecondOrderLowPassCoefficients
    var rest: RestDetector.Coefficients
    var magnetic: MagneticDisturbanceDetector.Coefficients
    var heading: HeadingCorrection.Coefficients
    var bias: GyroBiasEstimator.Coefficients
    /// Per-sample gain of the mean squared rotation rate.
    var rotationEnergyGain: Double

    init(_ s: AHRSSettings, samplePeriod dt: Double) {
        samplePeriod = dt
        acceleration = SecondOrderLowPassCoefficients(timeConstant: s.accelerationTimeConstant, samplePeriod: dt)
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
