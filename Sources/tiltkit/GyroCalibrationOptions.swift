import ArgumentParser
import Motion
import MotionDevices

/// `--gyro-calibration auto|continuous|manual|off`, shared by `teapot`, `cart`, `record` and
/// `serve dsu`. Applied in one place, `SourceSpec.makeSource`, where the source is made.
///
///     @OptionGroup var gyro: GyroCalibrationOptions
///     try spec.makeSource(.init(gyroCalibration: gyro.choice))
struct GyroCalibrationOptions: ParsableArguments {
    @Option(name: .customLong("gyro-calibration"),
            help: "Gyro bias removal for live devices: auto (learned whenever the pad rests 2 s), continuous (a running average: for a pad left still), manual (only on request: the C key), off. Default auto; traces are replayed as recorded unless this is given.")
    var choice: GyroCalibrationChoice?
}

enum GyroCalibrationChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, continuous, manual, off

    var mode: GyroCalibration.Mode {
        switch self {
        case .auto: .automatic
        case .continuous: .continuous
        case .manual: .manual
        case .off: .off
        }
    }

    /// The mode for a source: the one given, else auto for a live device and none for a
    /// recording (a trace keeps what was recorded, corrected or not). Off: no wrapper at all.
    static func mode(given: GyroCalibrationChoice?, live: Bool) -> GyroCalibration.Mode? {
        let mode = given?.mode ?? (live ? .automatic : nil)
        return mode == .off ? nil : mode
    }

    /// `source` behind a `GyroCalibratedSource` in `mode`, or as it is for nil.
    static func wrap(_ source: any MotionSource, mode: GyroCalibration.Mode?) -> any MotionSource {
        guard let mode else { return source }
        return GyroCalibratedSource(wrapping: source, calibration: GyroCalibration(mode: mode))
    }
}
