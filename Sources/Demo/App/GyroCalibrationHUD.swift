import Foundation
import Motion
import MotionDevices

/// The gyro calibration as one HUD line, shared by the teapot and the cart (ASCII only: the
/// font has no degree sign).
///
///     GyroCalibrationHUD.line(input.gyroCalibration)   // "gyro bias +0.12 -1.98 +0.80 deg/s  settled (auto)"
public enum GyroCalibrationHUD {
    public static func line(_ calibration: GyroCalibration?) -> String {
        guard let c = calibration else { return "gyro bias off (as delivered)" }
        let b = c.bias * (180 / Double.pi)
        let bias = String(format: "gyro bias %+.2f %+.2f %+.2f deg/s  ", b.x, b.y, b.z)
        if case .manual(let progress) = c.state {
            return bias + String(format: "settling: hold still, calibrating %.0f%%", progress * 100)
        }
        let hint = c.mode == .manual && c.status == .off ? ", C to calibrate" : ""
        return bias + "\(c.status.rawValue) (\(modeName(c.mode))\(hint))"
    }

    /// The names `--gyro-calibration` takes.
    static func modeName(_ mode: GyroCalibration.Mode) -> String {
        mode == .automatic ? "auto" : mode.rawValue
    }
}
