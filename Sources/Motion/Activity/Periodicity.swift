/// The strongest repetition in a uniformly sampled signal, from its normalised autocorrelation:
/// the highest local peak among lags in a range. Unbiased (each lag's sum divided by its overlap),
/// so a peak near the window's half is not penalised for its shorter overlap.
///
///     let p = Periodicity.strongest(in: magnitudes, rate: 50, periods: 0.25...1.3)
///     p?.period   // 1.12 s for walking with the phone in a trouser pocket
struct Periodicity: Hashable, Sendable {
    /// Seconds.
    var period: Double
    /// Autocorrelation at that lag, 1 for a perfect repetition (can exceed 1 slightly, unbiased).
    var strength: Double

    /// nil when the signal is flat or no lag in `periods` (seconds, capped at half the window) is a local peak.
    static func strongest(in signal: [Double], rate: Double, periods: ClosedRange<Double>) -> Periodicity? {
        let n = signal.count
        guard n >= 8, rate > 0 else { return nil }
        let mean = signal.reduce(0, +) / Double(n)
        let x = signal.map { $0 - mean }
        let energy = x.reduce(0) { $0 + $1 * $1 } / Double(n)
        guard energy > 1e-12 else { return nil }
        let low = Swift.max(1, Int((periods.lowerBound * rate).rounded(.down)))
        let high = Swift.min(n / 2, Int((periods.upperBound * rate).rounded(.up)))
        guard high - low >= 2 else { return nil }
        func correlation(_ lag: Int) -> Double {
            var sum = 0.0
            for i in 0..<(n - lag) { sum += x[i] * x[i + lag] }
            return sum / Double(n - lag) / energy
        }
        var values: [Double] = []
        values.reserveCapacity(high - low + 3)
        for lag in (low - 1)...(high + 1) { values.append(correlation(lag)) }
        var best: Periodicity?
        // A local maximum only: the range's edge on a falling slope is no period.
        for k in 1..<(values.count - 1) where values[k] >= values[k - 1] && values[k] > values[k + 1] {
            let lag = low - 1 + k
            if best == nil || values[k] > best!.strength {
                best = Periodicity(period: Double(lag) / rate, strength: values[k])
            }
        }
        return best
    }
}
