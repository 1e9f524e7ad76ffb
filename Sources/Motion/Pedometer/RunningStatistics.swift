/// Mean and standard deviation of a stream that forgets with a time constant: a plain average
/// over the first `timeConstant` worth of samples, an exponential one after (West, "Updating mean
/// and variance estimates", CACM 1979, with exponential weights).
struct RunningStatistics {
    /// Samples after which the weight of a new sample stops shrinking.
    let horizon: Double
    private(set) var count = 0
    private(set) var mean = 0.0
    private var variance = 0.0

    init(horizonSamples: Double) { horizon = max(1, horizonSamples) }

    var standardDeviation: Double { variance.squareRoot() }

    mutating func add(_ x: Double) {
        count += 1
        let alpha = max(1 / Double(count), 1 / horizon)
        let delta = x - mean
        mean += alpha * delta
        variance = (1 - alpha) * (variance + alpha * delta * delta)
    }
}
