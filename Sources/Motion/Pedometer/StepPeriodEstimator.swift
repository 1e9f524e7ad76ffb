/// The step period of a walk from the autocorrelation of the smoothed acceleration magnitude over
/// the last few seconds, as in Rai et al.'s "Zee" (MobiCom 2012) and among the walk detectors
/// Brajdic & Harle (UbiComp 2013) compare. Walking's autocorrelation peaks at one step and at one stride (two steps, often the
/// higher peak, since left and right differ); the period reported is the highest peak's lag,
/// halved for as long as a peak near the half reaches `strideRatio`.
///
///     var period = StepPeriodEstimator(sampleRate: 50, window: 4, minimumPeriod: 0.25, maximumPeriod: 2)
///     period.push(x)          // each smoothed magnitude
///     period.period           // s, nil until a full window is periodic
struct StepPeriodEstimator {
    /// The step period, s, from the last full window that was periodic enough; nil otherwise.
    private(set) var period: Double?
    /// The highest normalised autocorrelation of the last window, 0…1.
    private(set) var strength = 0.0
    /// The autocorrelation at `period`, −1…1.
    private(set) var periodStrength = 0.0

    private var window: SampleWindow
    private let rate: Double
    private let minimumLag: Int
    private let maximumLag: Int
    private let updateEvery: Int
    private var sinceUpdate = 0
    private let minimumStrength: Double
    private let strideRatio: Double
    private var scratch: [Double]
    private var correlation: [Double]

    /// `sampleRate` Hz of the pushed values; `window`, `minimumPeriod`, `maximumPeriod` in s.
    init(sampleRate: Double, window seconds: Double = 4, minimumPeriod: Double = 0.25, maximumPeriod: Double = 2,
         minimumStrength: Double = 0.25, strideRatio: Double = 0.2, updateInterval: Double = 0.25) {
        rate = sampleRate
        let count = max(8, Int(seconds * sampleRate))
        window = SampleWindow(count: count)
        minimumLag = max(1, Int(minimumPeriod * sampleRate))
        maximumLag = min(count / 2, max(minimumLag + 2, Int(maximumPeriod * sampleRate)))
        updateEvery = max(1, Int(updateInterval * sampleRate))
        self.minimumStrength = minimumStrength
        self.strideRatio = strideRatio
        scratch = Array(repeating: 0, count: count)
        correlation = Array(repeating: 0, count: maximumLag + 2)
    }

    mutating func push(_ x: Double) {
        window.push(x)
        sinceUpdate += 1
        guard window.isFull, sinceUpdate >= updateEvery else { return }
        sinceUpdate = 0
        estimate()
    }

    mutating func reset() {
        window.reset()
        period = nil
        strength = 0
        sinceUpdate = 0
    }

    private mutating func estimate() {
        let n = window.count
        var mean = 0.0
        for i in 0..<n { mean += window[i] }
        mean /= Double(n)
        for i in 0..<n { scratch[i] = window[i] - mean }
        var best = 0.0
        for lag in (minimumLag - 1)...(maximumLag + 1) {
            var xy = 0.0, xx = 0.0, yy = 0.0
            for i in 0..<(n - lag) {
                let a = scratch[i], b = scratch[i + lag]
                xy += a * b
                xx += a * a
                yy += b * b
            }
            let r = xx > 0 && yy > 0 ? xy / (xx * yy).squareRoot() : 0
            correlation[lag] = r
            if lag >= minimumLag && lag <= maximumLag { best = max(best, r) }
        }
        strength = best
        guard best >= minimumStrength else {
            period = nil
            return
        }
        // The highest peak is a step or a stride; a stride has a positive peak near its half.
        var stepLag = minimumLag
        for lag in minimumLag...maximumLag where correlation[lag] == best {
            stepLag = lag
            break
        }
        // Halve while a peak near the half is there: the highest may be two strides, even.
        while true {
            let low = max(minimumLag, Int(0.4 * Double(stepLag))), high = Int(0.6 * Double(stepLag))
            guard low <= high else { break }
            var halfBest = strideRatio, halfLag: Int?
            for lag in low...high
            where correlation[lag] > halfBest && correlation[lag] >= correlation[lag - 1]
                && correlation[lag] >= correlation[lag + 1] {
                halfBest = correlation[lag]
                halfLag = lag
            }
            guard let halfLag else { break }
            stepLag = halfLag
        }
        period = Double(stepLag) / rate
        periodStrength = correlation[stepLag]
    }
}
