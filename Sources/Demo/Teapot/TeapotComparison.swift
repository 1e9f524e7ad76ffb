import Engine
import Motion

/// The compare view's state: fusion (left) and the accelerometer-only estimate (right) from the
/// same samples (`EstimatorComparison`), each with its own rubber band for translation mode, and
/// a strip of how far apart they are and, where the source carries a reference (Core Motion's
/// own output, ground truth), how far each is from it. Pure: the scene feeds it once per frame.
public struct TeapotComparison: Sendable {
    /// One column of the strip, degrees.
    public struct StripPoint: Sendable, Hashable {
        public var separation: Double
        public var fusionError: Double?
        public var accelerometerOnlyError: Double?
    }

    public private(set) var latest: ComparisonFrame?
    public private(set) var strip: [StripPoint] = []
    public private(set) var fusionSpring = TeapotSpring()
    public private(set) var accelerometerOnlySpring = TeapotSpring()
    /// Stored by `resetReference` (R): later attitudes are relative to these.
    private var fusionReference: Attitude?
    private var accelerometerOnlyReference: Attitude?

    public init() {}

    /// One frame: the latest comparison (nil before the first), whether translation mode is on,
    /// and seconds since the last frame.
    public mutating func update(_ frame: ComparisonFrame?, translation: Bool, dt: Double) {
        if let frame, frame.timestamp != latest?.timestamp {
            let degrees = 180 / Double.pi
            strip.append(StripPoint(separation: frame.separation * degrees, fusionError: frame.fusionError.map { $0 * degrees },
                                    accelerometerOnlyError: frame.accelerometerOnlyError.map { $0 * degrees }))
            if strip.count > TeapotState.graphCapacity { strip.removeFirst(strip.count - TeapotState.graphCapacity) }
            latest = frame
            if translation {
                fusionSpring.observe(userAcceleration: frame.fusion.userAcceleration, attitude: frame.fusion.attitude,
                                     timestamp: frame.timestamp)
                accelerometerOnlySpring.observe(userAcceleration: frame.accelerometerOnly.userAcceleration,
                                                attitude: frame.accelerometerOnly.attitude, timestamp: frame.timestamp)
            }
        }
        if translation {
            fusionSpring.step(dt: dt)
            accelerometerOnlySpring.step(dt: dt)
        }
    }

    /// R: the current attitudes become the references of both sides.
    public mutating func resetReference() {
        fusionReference = latest?.fusion.attitude
        accelerometerOnlyReference = latest?.accelerometerOnly.attitude
        resetSprings()
    }

    public mutating func resetSprings() {
        fusionSpring.reset()
        accelerometerOnlySpring.reset()
    }

    public var fusionAttitude: Attitude { Self.relative(latest?.fusion.attitude, to: fusionReference) }
    public var accelerometerOnlyAttitude: Attitude { Self.relative(latest?.accelerometerOnly.attitude, to: accelerometerOnlyReference) }

    private static func relative(_ attitude: Attitude?, to reference: Attitude?) -> Attitude {
        guard var a = attitude else { return .identity }
        if let reference { a.multiply(byInverseOf: reference) }
        return a
    }

    /// The strip's three series in degrees: separation, fusion's error, accelerometer-only error
    /// (the last two empty when the source carries no reference).
    public var stripSeries: (separation: [Float], fusionError: [Float], accelerometerOnlyError: [Float]) {
        (strip.map { Float($0.separation) }, strip.compactMap { $0.fusionError.map(Float.init) },
         strip.compactMap { $0.accelerometerOnlyError.map(Float.init) })
    }

    /// The strip's upper bound, degrees: 10, 30, 90 or 180, whichever holds what it shows.
    public var stripRange: Float {
        let peak = strip.map { max($0.separation, $0.fusionError ?? 0, $0.accelerometerOnlyError ?? 0) }.max() ?? 0
        return peak <= 10 ? 10 : peak <= 30 ? 30 : peak <= 90 ? 90 : 180
    }
}
