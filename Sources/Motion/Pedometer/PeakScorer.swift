/// How much a sample stands above its neighbours: the mean of (centre − neighbour) over the `h`
/// samples on each side (the "mean difference" peak function Salvi et al. 2018 found best, after
/// Palshikar, "Simple algorithms for peak detection in time-series", 2009). Lags by `h` samples.
struct PeakScorer {
    private var window: SampleWindow

    /// `halfWidth` in samples.
    init(halfWidth: Int) { window = SampleWindow(count: 2 * max(1, halfWidth) + 1) }

    /// The score of the sample `halfWidth` back, in the input's unit, once the window is full.
    mutating func push(_ x: Double) -> Double? {
        window.push(x)
        guard window.isFull else { return nil }
        let mid = window.count / 2
        let centre = window[mid]
        var sum = 0.0
        for i in 0..<window.count where i != mid { sum += centre - window[i] }
        return sum / Double(window.count - 1)
    }

    mutating func reset() { window.reset() }
}
