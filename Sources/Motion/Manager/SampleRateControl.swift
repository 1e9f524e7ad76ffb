/// What the motion manager did with its update intervals: set the device's rate, or thin the
/// device's own rate. Read it from `MotionManager.sampleRateControl`.
public enum SampleRateControl: Hashable, Sendable, CustomStringConvertible {
    /// No running update type asks for fewer samples than the source gives (an interval is 0, or
    /// nothing runs): the device runs at its own rate, every sample is delivered.
    case everySample(deviceRate: Double?)
    /// The device was asked for `requested` Hz and runs at `applied` Hz (the nearest rate it offers
    /// at or above); samples beyond the intervals are still thinned by timestamp.
    case setOnDevice(requested: Double, applied: Double)
    /// The device has no rate setting (a pad) or refused it: it runs at its own `deviceRate` and
    /// the manager delivers one sample per interval.
    case decimated(requested: Double, deviceRate: Double?)

    public var description: String {
        func hz(_ value: Double?) -> String {
            guard let value else { return "an unknown rate" }
            return value == value.rounded() ? "\(Int(value)) Hz" : String(format: "%.1f Hz", value)
        }
        switch self {
        case .everySample(let rate): return "every sample at the device's own rate (\(hz(rate)))"
        case let .setOnDevice(requested, applied): return "device set to \(hz(applied)) for \(hz(requested)) asked"
        case let .decimated(requested, rate): return "device runs at its own \(hz(rate)) (no rate setting); decimated to \(hz(requested))"
        }
    }
}
