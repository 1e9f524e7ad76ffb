import Engine
import Foundation
import Motion

/// The compass in the demos' HUD: the magnetometer calibration's accuracy and fit, the heading in
/// north-referenced frames, and Core Motion's calibration prompt (move the device in a
/// figure-eight) while the accuracy is low in a frame that uses the magnetometer.
public enum CompassHUD {
    /// What the HUD knows of the compass this frame.
    public struct Facts: Sendable {
        public var frame: AttitudeReferenceFrame
        public var accuracy: MagneticFieldCalibrationAccuracy
        public var calibration: MagnetometerCalibration?
        /// Degrees clockwise from north, −1 outside north-referenced frames.
        public var heading: Double

        public init(frame: AttitudeReferenceFrame, accuracy: MagneticFieldCalibrationAccuracy,
                    calibration: MagnetometerCalibration?, heading: Double) {
            self.frame = frame
            self.accuracy = accuracy
            self.calibration = calibration
            self.heading = heading
        }

        /// From a scene's input, nil when the source has no magnetometer.
        public init?(_ input: SceneMotionInput, motion: DeviceMotion?) {
            guard input.manager.isMagnetometerAvailable else { return nil }
            self.init(frame: input.referenceFrame, accuracy: input.manager.magnetometerCalibrationAccuracy,
                      calibration: input.manager.magnetometerCalibration, heading: motion?.heading ?? -1)
        }

        /// True while Core Motion would show its calibration display.
        public var needsCalibration: Bool { frame.usesMagnetometer && accuracy <= .low }
    }

    public static let prompt = "Calibrate the compass: move the device in a figure-eight"

    /// "compass high (fit 1.7%, 31% of directions)  heading 288.0 deg".
    public static func line(_ facts: Facts) -> String {
        var line = "compass \(name(facts.accuracy))"
        if let c = facts.calibration {
            line += String(format: " (fit %.1f%%, %.0f%% of directions%@)", c.residual * 100, c.coverage * 100,
                           c.hasSoftIron ? ", soft iron" : "")
        }
        if facts.frame.isNorthReferenced && facts.heading >= 0 {
            line += String(format: "  heading %.1f deg", facts.heading)
        } else if !facts.frame.isNorthReferenced {
            line += "  (heading: --frame x-magnetic-north-z-vertical)"
        }
        return line
    }

    static func name(_ accuracy: MagneticFieldCalibrationAccuracy) -> String {
        switch accuracy {
        case .uncalibrated: return "uncalibrated"
        case .low: return "low"
        case .medium: return "medium"
        case .high: return "high"
        }
    }

    /// The prompt, centred near the top, when the facts call for it.
    public static func drawPrompt(_ facts: Facts?, overlay: Overlay, size: PixelSize, scale: Float) {
        guard let facts, facts.needsCalibration else { return }
        let text = prompt + "\n" + "(compass accuracy \(name(facts.accuracy)))"
        let box = Overlay.measure(text, scale: scale)
        let x = (Float(size.width) - box.width) / 2, y = Float(size.height) * 0.3
        overlay.rect(x: x - 14, y: y - 10, width: box.width + 28, height: box.height + 20, color: Color(0.35, 0.2, 0.05, 0.85))
        overlay.text(text, x: x, y: y, scale: scale, color: Color(1, 0.9, 0.6))
    }
}
