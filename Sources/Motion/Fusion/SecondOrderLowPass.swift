import Foundation

/// Coefficients of a second-order Butterworth low-pass for a time constant and sample period,
/// computed once (tan) and reused every sample. Design as in VQF (Laidig & Seel 2023,
/// `filterCoeffs`, after https://stackoverflow.com/a/52764064): cut-off fc = √2 / (2π·τ).
struct SecondOrderLowPassCoefficients: Hashable, Sendable {
    var b0: Double, b1: Double, b2: Double
    var a1: Double, a2: Double
    /// Samples in one time constant: a filter starts by averaging this many (see `SecondOrderLowPass3.start`).
    var warmUpSamples = 1

    /// - Parameters: timeConstant τ in s, samplePeriod in s.
    init(timeConstant tau: Double, samplePeriod: Double) {
        // π·fc·Ts with fc = √2 / (2π·τ)
        self.init(prewarped: tan(samplePeriod / (2.0.squareRoot() * tau)))
        warmUpSamples = max(1, Int((tau / samplePeriod).rounded(.up)))
    }

    /// From the prewarped cut-off C = tan(π·fc·Ts).
    @inline(__always)
    private init(prewarped c: Double) {
        let d = c * c + 2.0.squareRoot() * c + 1
        b0 = c * c / d
        b1 = 2 * b0
        b2 = b0
        a1 = 2 * (c * c - 1) / d
        a2 = (1 - 2.0.squareRoot() * c + c * c) / d
    }
}

/// Direct-form-II-transposed state of the second-order low-pass for one 3-vector.
struct SecondOrderLowPass3: Hashable, Sendable {
    private var s0 = Vector3.zero
    private var s1 = Vector3.zero
    /// Last output.
    private(set) var value = Vector3.zero
    /// While warming up: the sum and count of the inputs so far.
    private var warming = false
    private var warmUpSum = Vector3.zero
    private var warmUpCount = 0

    /// Makes the next `warmUpSamples` outputs the plain mean of the inputs so far, after which the
    /// filter settles there and runs (as VQF's `filterVec`): no single first sample, however
    /// shaken, decides where the filter starts, and the first output is the first input.
    mutating func start() {
        warming = true
        warmUpSum = .zero
        warmUpCount = 0
    }

    /// Sets the state as if `x` had been the input forever (steady state), so start-up has no transient.
    @inline(__always)
    mutating func settle(at x: Vector3, _ c: SecondOrderLowPassCoefficients) {
        warming = false
        s0 = x * (1 - c.b0)
        s1 = x * (c.b2 - c.a2)
        value = x
    }

    @inline(__always) @discardableResult
    mutating func filter(_ x: Vector3, _ c: SecondOrderLowPassCoefficients) -> Vector3 {
        if warming {
            warmUpSum += x
            warmUpCount += 1
            value = warmUpSum / Double(warmUpCount)
            if warmUpCount >= c.warmUpSamples { settle(at: value, c) }
            return value
        }
        let y = x * c.b0 + s0
        s0 = x * c.b1 - y * c.a1 + s1
        s1 = x * c.b2 - y * c.a2
        value = y
        return y
    }

    /// Switches coefficients without a jump in the output (VQF's filterAdaptStateForCoeffChange):
    /// the state is changed so that the last output stays the steady-state continuation.
    @inline(__always)
    mutating func retune(from old: SecondOrderLowPassCoefficients, to new: SecondOrderLowPassCoefficients) {
        if warming { return }  // still averaging: nothing to carry over
        s0 += value * (old.b0 - new.b0)
        s1 += value * (old.b1 - new.b1 - old.a1 + new.a1)
    }
}
