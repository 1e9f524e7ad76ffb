import Motion
import MotionDevices

/// How a source made from a `SourceSpec` removes gyro bias: the CLI's `--gyro-calibration`.
public enum GyroCalibrationChoice: String, CaseIterable, Sendable {
    case auto, continuous, manual, off

    public var mode: GyroCalibration.Mode {
        switch self {
        case .auto: .automatic
        case .continuous: .continuous
        case .manual: .manual
        case .off: .off
        }
    }

    /// The mode for a source: the one given, else auto for a live device and none for a
    /// recording (a trace keeps what was recorded, corrected or not). Off: no wrapper at all.
    public static func mode(given: GyroCalibrationChoice?, live: Bool) -> GyroCalibration.Mode? {
        let mode = given?.mode ?? (live ? .automatic : nil)
        return mode == .off ? nil : mode
    }

    /// `source` behind a `GyroCalibratedSource` in `mode`, or as it is for nil.
    public static func wrap(_ source: any MotionSource, mode: GyroCalibration.Mode?) -> any MotionSource {
        guard let mode else { return source }
        return GyroCalibratedSource(wrapping: source, calibration: GyroCalibration(mode: mode))
    }
}
