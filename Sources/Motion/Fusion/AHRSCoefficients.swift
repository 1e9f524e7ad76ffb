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
    var rest: RestDetector.Coefficients
    var magnetic: MagneticDisturbanceDetector.Coefficients
    var heading: HeadingCorrection.Coefficients
    var gyroError: GyroErrorEstimator.Coefficients

    init(_ s: AHRSSettings, samplePeriod: Double) {
        self.samplePeriod = samplePeriod
        correctionStride = max(1, Int((1 / (s.correctionRate * samplePeriod)).rounded()))
        // everything below runs once per correction step
        let dt = samplePeriod * Double(correctionStride)
        acceleration = SecondOrderLowPassCoefficients(timeConstant: s.accelerationTimeConstant, samplePeriod: dt)
        rest = RestDetector.Coefficients(s, samplePeriod: dt)
        magnetic = MagneticDisturbanceDetector.Coefficients(s, samplePeriod: dt)
        heading = HeadingCorrection.Coefficients(s, samplePeriod: dt)
        gyroError = GyroErrorEstimator.Coefficients(s, samplePeriod: dt)
    }

    /// The gain of a first-order low-pass with time constant τ (s) at period dt (s); τ ≤ 0 means no filtering.
    static func gain(timeConstant tau: Double, samplePeriod dt: Double) -> Double {
        tau <= 0 ? 1 : 1 - exp(-dt / tau)
    }
}
