/// The optional values a trace carries beside time and acceleration (which every trace has).
public struct TraceColumns: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let rotationRate = TraceColumns(rawValue: 1 << 0)
    public static let magneticField = TraceColumns(rawValue: 1 << 1)
    public static let referenceAttitude = TraceColumns(rawValue: 1 << 2)
    public static let referenceGravity = TraceColumns(rawValue: 1 << 3)
    public static let referenceUserAcceleration = TraceColumns(rawValue: 1 << 4)
    public static let pressure = TraceColumns(rawValue: 1 << 5)

    public static let reference: TraceColumns = [.referenceAttitude, .referenceGravity, .referenceUserAcceleration]

    /// The columns a source with these sensors fills.
    public init(sensors: SensorSet) {
        self = []
        if sensors.contains(.gyroscope) { insert(.rotationRate) }
        if sensors.contains(.magnetometer) { insert(.magneticField) }
        if sensors.contains(.barometer) { insert(.pressure) }
    }

    /// The columns at least one of `samples` fills.
    public init<S: Sequence>(filledBy samples: S) where S.Element == MotionSample {
        self = []
        for s in samples {
            if s.rotationRate != nil { insert(.rotationRate) }
            if s.magneticField != nil { insert(.magneticField) }
            if s.pressure != nil { insert(.pressure) }
            if let r = s.reference {
                if r.attitude != nil { insert(.referenceAttitude) }
                if r.gravity != nil { insert(.referenceGravity) }
                if r.userAcceleration != nil { insert(.referenceUserAcceleration) }
            }
        }
    }

    /// The raw sensors these columns (plus the always-present accelerometer) stand for.
    public var sensors: SensorSet {
        var set: SensorSet = .accelerometer
        if contains(.rotationRate) { set.insert(.gyroscope) }
        if contains(.magneticField) { set.insert(.magnetometer) }
        if contains(.pressure) { set.insert(.barometer) }
        return set
    }
}
