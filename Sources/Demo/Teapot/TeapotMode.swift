/// Where the camera's pivot is (the two paradigms of Apple's Core Motion talks).
public enum TeapotPivot: String, CaseIterable, Sendable {
    /// The camera stays at a fixed point in the world and the attitude turns it: a window onto a
    /// world that stays put.
    case camera
    /// The camera orbits the teapot at the origin, always facing it: the teapot seems to stay
    /// fixed in the room as the device turns.
    case object

    public var title: String { self == .camera ? "camera-centred" : "object-centred" }
    public var toggled: TeapotPivot { self == .camera ? .object : .camera }
}

/// What moves the teapot, as in Apple's CoreMotionTeapot.
public enum TeapotMode: String, CaseIterable, Sendable {
    /// Device motion: the full fused attitude (roll, pitch and yaw).
    case fusion
    /// Accelerometer only: low-passed gravity gives roll and pitch, never yaw; the cut-off
    /// trades lag against wobble.
    case accel
    /// Device motion plus user acceleration pulling the teapot off centre on a damped spring.
    case translation

    public var title: String {
        switch self {
        case .fusion: return "device motion (fusion)"
        case .accel: return "accelerometer only"
        case .translation: return "translation (fusion's user acceleration)"
        }
    }

    /// The title on a source without a gyro, where the accelerometer-only estimate runs.
    public var accelerometerOnlyTitle: String {
        switch self {
        case .fusion, .accel: return "accelerometer only (no gyro)"
        case .translation: return "translation (high-passed accelerometer, no gyro)"
        }
    }

    /// Why mode 1 cannot run on a gyro-less source.
    public static let fusionNeedsGyro = "fusion needs a gyro; this source has none"
    /// Why the compare view cannot run on a gyro-less source.
    public static let compareNeedsGyro = "compare needs a gyro for its fusion side; this source has none"

    /// True when the attitude comes from the accelerometer-only estimate.
    public var usesAccelerometerOnly: Bool { self == .accel }
}
