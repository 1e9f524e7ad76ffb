/// Limits a sample must respect to reach a filter. Values outside them are sensor saturation or
/// corrupt data; a gap longer than `maximumGap` restarts the filter.
public struct SampleLimits: Hashable, Sendable {
    /// Largest plausible |acceleration| component, g (a ±16 g sensor clips at 16).
    public var maximumAcceleration: Double
    /// Largest plausible |rotation rate| component, rad/s (±2000 °/s ≈ 34.9 rad/s).
    public var maximumRotationRate: Double
    /// Largest plausible |magnetic field| component, µT (phone magnetometers saturate near 4900 µT).
    public var maximumMagneticField: Double
    /// A longer time between samples, in seconds, re-initialises the attitude.
    public var maximumGap: Double

    public init(maximumAcceleration: Double = 32, maximumRotationRate: Double = 40,
                maximumMagneticField: Double = 4900, maximumGap: Double = 0.5) {
        self.maximumAcceleration = maximumAcceleration
        self.maximumRotationRate = maximumRotationRate
        self.maximumMagneticField = maximumMagneticField
        self.maximumGap = maximumGap
    }

    public static let `default` = SampleLimits()
}

/// How many samples were refused, and why. Plain counters, cheap to copy into a HUD.
public struct SampleRejectionCounts: Hashable, Sendable {
    /// A NaN or infinite timestamp or sensor value.
    public var nonFinite = 0
    /// A value at or beyond `SampleLimits` (sensor saturation).
    public var saturated = 0
    /// A timestamp not after the previous accepted one (reordered or duplicated sample).
    public var timeNotIncreasing = 0
    /// Gaps longer than `SampleLimits.maximumGap` that restarted the filter (the sample itself is used).
    public var gapRestarts = 0

    public init() {}

    /// Samples refused (gap restarts are not refusals).
    public var total: Int { nonFinite + saturated + timeNotIncreasing }
}

/// The validator's decision for one sample.
public enum SampleVerdict: Hashable, Sendable {
    /// Use the sample; `dt` is seconds since the previous accepted sample (0 for the first).
    case accept(dt: Double)
    /// Use the sample to start afresh (first sample, or after a gap).
    case restart
    /// Drop the sample (already counted).
    case reject
}

/// Checks each sample before it reaches a filter: finite, within limits, later than the last.
public struct SampleValidator: Hashable, Sendable {
    public var limits: SampleLimits
    /// Whether the field is checked: a filter that does not use it (6D) need not refuse a sample for it.
    public var checksMagneticField: Bool
    public private(set) var rejections = SampleRejectionCounts()
    /// Timestamp of the last accepted sample, seconds; nil before the first.
    public private(set) var lastTimestamp: Double?

    public init(limits: SampleLimits = .default, checksMagneticField: Bool = true) {
        self.limits = limits
        self.checksMagneticField = checksMagneticField
    }

    /// Forgets the last timestamp (counters are kept).
    public mutating func reset() { lastTimestamp = nil }

    @inline(__always)
    public mutating func check(_ sample: borrowing MotionSample) -> SampleVerdict {
        let t = sample.timestamp
        // One combined test for the usual sample: a comparison with NaN is false, so every value
        // strictly inside its limit is also finite. Only a failing sample is classified.
        guard t.isFinite, Self.within(sample.acceleration, limits.maximumAcceleration),
              Self.within(sample.rotationRate, limits.maximumRotationRate),
              checksMagneticField ? Self.within(sample.magneticField, limits.maximumMagneticField) : true
        else { return classifyRejection(copy sample) }
        guard let last = lastTimestamp else { lastTimestamp = t; return .restart }
        let dt = t - last
        if dt <= 0 { rejections.timeNotIncreasing += 1; return .reject }
        lastTimestamp = t
        if dt > limits.maximumGap { rejections.gapRestarts += 1; return .restart }
        return .accept(dt: dt)
    }

    /// Counts why a sample failed the combined test: non-finite first, then saturation. Out of line: rare.
    @inline(never)
    private mutating func classifyRejection(_ sample: MotionSample) -> SampleVerdict {
        var finite = sample.timestamp.isFinite && sample.acceleration.isFinite
        var saturated = Self.exceeds(sample.acceleration, limits.maximumAcceleration)
        if let w = sample.rotationRate {
            finite = finite && w.isFinite
            saturated = saturated || Self.exceeds(w, limits.maximumRotationRate)
        }
        if checksMagneticField, let m = sample.magneticField {
            finite = finite && m.isFinite
            saturated = saturated || Self.exceeds(m, limits.maximumMagneticField)
        }
        if !finite { rejections.nonFinite += 1 } else { rejections.saturated += 1 }
        return .reject
    }

    /// Every component strictly inside ±limit (false for NaN); a missing sensor passes.
    @inline(__always)
    private static func within(_ v: Vector3?, _ limit: Double) -> Bool {
        guard let v else { return true }
        return (abs(v.x) < limit) && (abs(v.y) < limit) && (abs(v.z) < limit)
    }

    @inline(__always)
    private static func exceeds(_ v: Vector3, _ limit: Double) -> Bool {
        abs(v.x) >= limit || abs(v.y) >= limit || abs(v.z) >= limit
    }
}
