import CartGame
import Engine
import Foundation
import MotionDevices

/// The cart game's head-up display: score, speed, lives, the lean gauge, the gesture
/// indicators and the title, pause and game-over screens. Text comes from pure functions
/// (`screenText`), drawing from `draw`.
public enum CartHUD {
    /// What the HUD shows besides the game state.
    public struct Facts: Sendable {
        /// Seconds since the last jump and duck the game saw (nil: none yet).
        public var sinceJump: Double?
        public var sinceDuck: Double?
        /// Buffer means now and the thresholds: rad/s for the jump, g for the duck.
        public var jumpLevel: Double
        public var duckLevel: Double
        public var settings: MotionControlSettings
        public var pose: HoldingPose
        public var sourceName: String
        /// Calibration prompt while calibrating.
        public var calibrationPrompt: String?
        /// The gyro calibration in use; nil when the gyro is used as delivered.
        public var gyroCalibration: GyroCalibration?
        /// Why jump and duck are held off ("walking - gestures paused"), nil when they run.
        public var gestureHold: String?

        public init(sinceJump: Double?, sinceDuck: Double?, jumpLevel: Double, duckLevel: Double,
                    settings: MotionControlSettings, pose: HoldingPose, sourceName: String,
                    calibrationPrompt: String? = nil, gyroCalibration: GyroCalibration? = nil, gestureHold: String? = nil) {
            self.sinceJump = sinceJump
            self.sinceDuck = sinceDuck
            self.jumpLevel = jumpLevel
            self.duckLevel = duckLevel
            self.settings = settings
            self.pose = pose
            self.sourceName = sourceName
            self.calibrationPrompt = calibrationPrompt
            self.gyroCalibration = gyroCalibration
            self.gestureHold = gestureHold
        }
    }

    /// The big centred text of a state screen, nil while playing.
    public static func screenText(_ state: CartState) -> (title: String, detail: String)? {
        switch state.phase {
        case .title:
            return ("BADGER CART", "lean to grab gems - tip toward you to jump - push down to duck\n"
                    + "keys: arrows/A-D lean, space/W jump, S/down duck, P pause\n\npress ENTER, SPACE or START")
        case .paused(.player):
            return ("PAUSED", "press P or START to ride on")
        case .paused(.deviceLost(let message)):
            return ("WAITING FOR MOTION", "\(message)\nthe game resumes when samples return")
        case .gameOver:
            return ("GAME OVER", "score \(state.score)   gems \(state.gemsCollected)\n\npress ENTER, SPACE or START")
        case .playing:
            return nil
        }
    }

    public static func draw(_ view: CartView, facts: Facts, overlay: Overlay, size: PixelSize) {
        let w = Float(size.width), h = Float(size.height)
        let state = view.state
        let panel = Color(0, 0, 0, 0.45)
        // Score, lives, speed.
        overlay.rect(x: 12, y: 12, width: 250, height: 74, color: panel)
        overlay.text("SCORE \(state.score)", x: 24, y: 22, scale: 3, color: Color(1, 0.85, 0.3))
        overlay.text("LIVES", x: 24, y: 60, scale: 2)
        for i in 0..<max(0, state.livesLeft) {
            overlay.rect(x: 110 + Float(i) * 22, y: 60, width: 16, height: 16, color: Color(0.95, 0.3, 0.3))
        }
        let kmh = Int((view.speed * 3.6).rounded())
        overlay.rect(x: w - 232, y: 12, width: 220, height: 74, color: panel)
        overlay.text("\(kmh) km/h", x: w - 220, y: 22, scale: 3)
        overlay.text(String(format: "%.0f m", view.distance), x: w - 220, y: 60, scale: 2, color: Color(0.8, 0.8, 0.85))

        drawLeanGauge(lean: view.lean, cx: w - 140, cy: h - 44, radius: 100, overlay: overlay)
        drawGesture("JUMP", since: facts.sinceJump, level: facts.jumpLevel, threshold: facts.settings.jump.threshold,
                    x: 24, y: h - 96, overlay: overlay)
        drawGesture("DUCK", since: facts.sinceDuck, level: facts.duckLevel, threshold: facts.settings.duck.threshold,
                    x: 24, y: h - 52, overlay: overlay)
        overlay.text("\(facts.sourceName)  pose \(facts.pose.rawValue)", x: 16, y: h - 128, scale: 1.5,
                     color: Color(0.75, 0.75, 0.8))
        overlay.text(GyroCalibrationHUD.line(facts.gyroCalibration), x: 16, y: h - 148, scale: 1.5,
                     color: Color(0.75, 0.75, 0.8))

        if let hold = facts.gestureHold {
            // Top centre, between the score and speed panels: the player looks there, not at the gauges.
            let width = Overlay.measure(hold, scale: 2).width
            overlay.rect(x: (w - width) / 2 - 10, y: 96, width: width + 20, height: 30, color: panel)
            centred(hold, y: 103, scale: 2, color: Color(1, 0.6, 0.25), overlay: overlay, width: w)
        }
        if let prompt = facts.calibrationPrompt {
            centred(prompt, y: h * 0.3, scale: 3, color: Color(0.5, 1, 0.6), overlay: overlay, width: w)
        }
        if let screen = screenText(state) {
            overlay.rect(x: 0, y: h * 0.28, width: w, height: h * 0.36, color: Color(0, 0, 0, 0.6))
            centred(screen.title, y: h * 0.33, scale: 6, color: Color(1, 0.85, 0.3), overlay: overlay, width: w)
            var y = h * 0.33 + 70
            for line in screen.detail.split(separator: "\n", omittingEmptySubsequences: false) {
                centred(String(line), y: y, scale: 2, color: .white, overlay: overlay, width: w)
                y += 24
            }
        }
    }

    private static func centred(_ text: String, y: Float, scale: Float, color: Color, overlay: Overlay, width: Float) {
        overlay.text(text, x: (width - Overlay.measure(text, scale: scale).width) / 2, y: y, scale: scale, color: color)
    }

    /// A half dial: the needle at the cart's lean, ticks at the lane reach (±20°) and ±60°.
    private static func drawLeanGauge(lean: Float, cx: Float, cy: Float, radius: Float, overlay: Overlay) {
        overlay.rect(x: cx - radius - 14, y: cy - radius - 30, width: 2 * radius + 28, height: radius + 44, color: Color(0, 0, 0, 0.45))
        var arc: [(x: Float, y: Float)] = []
        for i in 0...36 {
            let a = -Float.pi / 2 + Float(i) / 36 * Float.pi
            arc.append((cx + sin(a) * radius, cy - cos(a) * radius))
        }
        overlay.polyline(arc, width: 3, color: Color(0.7, 0.7, 0.75))
        for degrees in [-60, -20, 0, 20, 60] as [Float] {
            let a = degrees * .pi / 180
            overlay.line(from: (cx + sin(a) * (radius - 12), cy - cos(a) * (radius - 12)),
                         to: (cx + sin(a) * radius, cy - cos(a) * radius), width: 3,
                         color: abs(degrees) == 20 ? Color(1, 0.85, 0.3) : Color(0.7, 0.7, 0.75))
        }
        let a = max(-Float.pi / 2, min(Float.pi / 2, lean))
        overlay.line(from: (cx, cy), to: (cx + sin(a) * (radius - 6), cy - cos(a) * (radius - 6)), width: 5,
                     color: Color(1, 0.4, 0.3))
        let label = String(format: "LEAN %+.0f", lean * 180 / .pi)
        overlay.text(label, x: cx - Overlay.measure(label, scale: 2).width / 2, y: cy - radius - 24, scale: 2)
    }

    /// A label that lights for 0.5 s after the gesture fires, and a bar of the buffer mean
    /// against the threshold (full bar = threshold reached).
    private static func drawGesture(_ name: String, since: Double?, level: Double, threshold: Double,
                                    x: Float, y: Float, overlay: Overlay) {
        let lit = since.map { $0 < 0.5 } ?? false
        overlay.rect(x: x - 8, y: y - 6, width: 290, height: 38, color: Color(0, 0, 0, 0.45))
        overlay.rect(x: x, y: y, width: 84, height: 26, color: lit ? Color(0.3, 0.9, 0.4) : Color(0.25, 0.25, 0.28))
        overlay.text(name, x: x + 10, y: y + 5, scale: 2, color: lit ? .black : Color(0.8, 0.8, 0.8))
        let fraction = threshold == 0 ? 0 : Float(max(0, min(1.2, level / threshold)))
        overlay.rect(x: x + 96, y: y + 6, width: 170, height: 14, color: Color(0.18, 0.18, 0.2))
        overlay.rect(x: x + 96, y: y + 6, width: 170 * fraction / 1.2, height: 14,
                     color: fraction >= 1 ? Color(0.3, 0.9, 0.4) : Color(0.5, 0.6, 0.9))
        overlay.rect(x: x + 96 + 170 / 1.2, y: y + 2, width: 2, height: 22, color: Color(1, 0.85, 0.3))
    }
}
