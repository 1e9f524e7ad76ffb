import Foundation

/// A centred Gaussian FIR low-pass over an evenly sampled signal: each output is the weighted
/// mean of the `2h + 1` inputs around it, so it lags the input by `h` samples.
///
///     var smoother = GaussianSmoother(sigma: 6, halfWidth: 17)   // in samples
///     if let y = smoother.push(x) { … }                           // y is the input 17 samples ago, smoothed
struct GaussianSmoother {
    private let weights: [Double]
    private var window: SampleWindow

    /// `sigma` and `halfWidth` in samples.
    init(sigma: Double, halfWidth: Int) {
        let h = max(0, halfWidth)
        let s = max(sigma, 1e-6)
        let raw = (-h...h).map { i in Self.gauss(Double(i), s) }
        let total = raw.reduce(0, +)
        weights = raw.map { $0 / total }  // unit gain at 0 Hz: the mean level passes unchanged
        window = SampleWindow(count: 2 * h + 1)
    }

    private static func gauss(_ x: Double, _ s: Double) -> Double {
        let z = x / s
        return exp(-0.5 * z * z)
    }

    /// The smoothed value `halfWidth` samples back, once the window is full.
    mutating func push(_ x: Double) -> Double? {
        window.push(x)
        guard window.isFull else { return nil }
        var sum = 0.0
        for i in 0..<weights.count { sum += weights[i] * window[i] }
        return sum
    }

    mutating func reset() { window.reset() }
}
