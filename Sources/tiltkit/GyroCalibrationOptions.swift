import ArgumentParser
import MotionSources

/// `--gyro-calibration auto|continuous|manual|off`, shared by `teapot`, `cart`, `record` and
/// `serve dsu`. Applied in one place, `SourceSpec.makeSource`, where the source is made.
///
///     @OptionGroup var gyro: GyroCalibrationOptions
///     try spec.openSource(.init(gyroCalibration: gyro.choice))
struct GyroCalibrationOptions: ParsableArguments {
    @Option(name: .customLong("gyro-calibration"),
            help: "Gyro bias removal for live devices: auto (learned whenever the pad rests 2 s), continuous (a running average: for a pad left still), manual (only on request: the C key), off. Default auto; traces are replayed as recorded unless this is given.")
    var choice: GyroCalibrationChoice?
}

extension GyroCalibrationChoice: ExpressibleByArgument {}
