/// Fusion and the accelerometer-only estimate fed the same samples, one at a time: what the
/// teapot's compare view draws side by side and what `tiltkit compare` measures.
///
///     var comparison = EstimatorComparison(cutoffFrequency: 2)
///     for sample in trace.samples {
///         guard let frame = comparison.update(sample) else { continue }
///         print(frame.separation * 180 / .pi, frame.accelerometerOnlyError.map { $0 * 180 / .pi } ?? .nan)
///     }
public struct EstimatorComparison: Sendable {
    public private(set) var fusion: AHRS
    public private(set) var accelerometerOnly: AccelerometerAttitudeEstimator
    /// The last frame both estimators accepted.
    public private(set) var latest: ComparisonFrame?
    private var fused = DeviceMotion()
    private var lowPassed = DeviceMotion()

    public init(cutoffFrequency: Double = 2, frame: AttitudeReferenceFrame = .xArbitraryZVertical) {
        fusion = AHRS(frame: frame)
        accelerometerOnly = AccelerometerAttitudeEstimator(cutoffFrequency: cutoffFrequency)
    }

    /// Cut-off of the accelerometer-only gravity low-pass, Hz; takes effect at the next sample.
    public var cutoffFrequency: Double {
        get { accelerometerOnly.cutoffFrequency }
        set { if newValue.isFinite && newValue > 0 { accelerometerOnly.cutoffFrequency = newValue } }
    }

    /// Feeds `sample` to both; nil when either rejected it (the other keeps what it saw).
    public mutating func update(_ sample: MotionSample) -> ComparisonFrame? {
        let a = fusion.update(sample, into: &fused)
        let b = accelerometerOnly.update(sample, into: &lowPassed)
        guard a && b else { return nil }
        let frame = ComparisonFrame(fusion: fused, accelerometerOnly: lowPassed, referenceGravity: Self.referenceGravity(sample))
        latest = frame
        return frame
    }

    /// The recording's own gravity (Core Motion's output, or ground truth converted to it), from
    /// its gravity column or else its attitude; nil when absent or not finite.
    public static func referenceGravity(_ sample: MotionSample) -> Vector3? {
        if let g = sample.reference?.gravity, g.isFinite, g.lengthSquared > 1e-6 { return g.normalized }
        if let q = sample.reference?.attitude, q.w.isFinite, q.x.isFinite, q.y.isFinite, q.z.isFinite {
            return Attitude(quaternion: q).gravity
        }
        return nil
    }
}

/// Both estimates after one sample, and how far apart they and the reference are.
public struct ComparisonFrame: Sendable, Hashable {
    public var fusion: DeviceMotion
    public var accelerometerOnly: DeviceMotion
    /// Unit gravity the recording carries (Core Motion's own, or ground truth), device frame.
    public var referenceGravity: Vector3?

    public init(fusion: DeviceMotion, accelerometerOnly: DeviceMotion, referenceGravity: Vector3?) {
        self.fusion = fusion
        self.accelerometerOnly = accelerometerOnly
        self.referenceGravity = referenceGravity
    }

    public var timestamp: Double { fusion.timestamp }
    /// Angle between the two gravity estimates, radians.
    public var separation: Double { fusion.gravity.angle(to: accelerometerOnly.gravity) }
    /// Fusion's tilt error against the reference, radians.
    public var fusionError: Double? { referenceGravity.map { fusion.gravity.angle(to: $0) } }
    /// The accelerometer-only tilt error against the reference, radians.
    public var accelerometerOnlyError: Double? { referenceGravity.map { accelerometerOnly.gravity.angle(to: $0) } }
}
