/// What a push handler receives as its error argument, as Core Motion's `CMError`.
public enum MotionManagerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `MotionSource.start` threw; the message is the source's.
    case sourceFailedToStart(String)
    /// The source reported its device gone.
    case sourceDisconnected(reason: String)
    /// The requested reference frame is not in `availableAttitudeReferenceFrames`.
    case referenceFrameUnavailable(AttitudeReferenceFrame)
    /// The source lacks the sensor this update type needs.
    case sensorUnavailable(String)
    /// Fusion was asked for on a source without a gyro (device motion needs one, as in Core Motion).
    case fusionNeedsGyroscope

    public var description: String {
        switch self {
        case .sourceFailedToStart(let message): "motion source failed to start: \(message)"
        case .sourceDisconnected(let reason): "motion source disconnected: \(reason)"
        case .referenceFrameUnavailable(let frame):
            "reference frame \(frame.rawValue) is unavailable for this source (magnetometer or location missing)"
        case .sensorUnavailable(let sensor): "this motion source has no \(sensor)"
        case .fusionNeedsGyroscope:
            "device motion by fusion needs a gyroscope and this source has none; the accelerometer-only estimate runs without one"
        }
    }
}
