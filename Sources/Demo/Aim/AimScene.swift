import Engine
import Foundation
import Motion

/// The target range as a `DemoScene`: each frame takes the aim turned since the last (every
/// pushed sample through `GyroAim`), steps the range, then draws it with a crosshair and the HUD.
/// Keys: space fires, hold R for "gyro off" (re-centre the pad), A toggles auto-fire, C calibrates
/// the gyro (hold still), H hides the HUD. Pad: R1/RB fires, hold L1/LB for gyro off.
public final class AimScene: DemoScene {
    public private(set) var range: AimRange
    public let player: AimPlayer
    private let renderer: AimRenderer
    private let gamepad: SDLGamepad?
    private var keys = (fire: false, gyroOff: false)
    private var firedLastFrame = false
    private var lastShot: AimRange.Shot?
    public var showsHUD = true

    public init(range: AimRange = AimRange(), player: AimPlayer, renderer: AimRenderer, gamepad: SDLGamepad?) {
        self.range = range
        self.player = player
        self.renderer = renderer
        self.gamepad = gamepad
    }

    public func handle(_ event: WindowEvent, controls: DemoControls) -> Bool {
        let down: Bool, key: Key
        switch event {
        case .keyDown(let k): down = true; key = k
        case .keyUp(let k): down = false; key = k
        default: return false
        }
        switch key {
        case .space: keys.fire = down
        case .character("r"): keys.gyroOff = down
        case .character("a"): if down { range.autoFire.toggle() }
        case .character("c"): if down { player.motion.calibrateGyro() }
        case .character("h"): if down { showsHUD.toggle() }
        default: return false
        }
        return true
    }

    public func update(_ frame: DemoFrame) {
        let pad = gamepad?.read() ?? GamepadState()
        player.gyroOff = keys.gyroOff || pad.leftShoulder
        player.motion.advance(toFrameTime: frame.time)
        // The trigger fires once per press, not every frame it is held.
        let held = keys.fire || pad.rightShoulder
        let shots = range.step(player.takeDelta(), dt: frame.deltaTime, trigger: held && !firedLastFrame)
        firedLastFrame = held
        if let shot = shots.last { lastShot = shot }
    }

    public func draw(_ frame: DemoFrame, graphics: Graphics) {
        renderer.drawScene(range, size: frame.size)
        let overlay = renderer.overlay
        let cx = Float(frame.size.width) / 2, cy = Float(frame.size.height) / 2
        let onTarget = range.targetUnderCrosshair != nil
        let color = player.gyroOff ? Color.gray : (onTarget ? Color.yellow : Color.white)
        overlay.line(from: (cx - 14, cy), to: (cx - 4, cy), width: 2, color: color)
        overlay.line(from: (cx + 4, cy), to: (cx + 14, cy), width: 2, color: color)
        overlay.line(from: (cx, cy - 14), to: (cx, cy - 4), width: 2, color: color)
        overlay.line(from: (cx, cy + 4), to: (cx, cy + 14), width: 2, color: color)
        if showsHUD {
            let lines = AimHUD.lines(range, settings: player.settings, gyroOff: player.gyroOff, lastShot: lastShot,
                                     source: player.motion.sourceInfo.name)
            let text = (lines + [GyroCalibrationHUD.line(player.motion.gyroCalibration)]).joined(separator: "\n")
            let box = Overlay.measure(text, scale: 2)
            overlay.rect(x: 8, y: 8, width: box.width + 16, height: box.height + 12, color: Color(0, 0, 0, 0.55))
            overlay.text(text, x: 16, y: 14, scale: 2)
        }
        overlay.draw(size: frame.size)
    }
}

/// The range's HUD text, pure (ASCII only: the font has no degree sign).
public enum AimHUD {
    public static func lines(_ range: AimRange, settings: GyroAimSettings, gyroOff: Bool, lastShot: AimRange.Shot?,
                             source: String) -> [String] {
        var sens = String(format: "sensitivity %.2f", settings.sensitivity)
        if let a = settings.acceleration {
            sens = String(format: "sensitivity %.2f-%.2f over %.0f-%.0f deg/s", a.lowerSensitivity, a.upperSensitivity,
                          a.lowerSpeed, a.upperSpeed)
        }
        var lines = [
            "GYRO AIM  space \(settings.space.rawValue)  \(sens)",
            String(format: "aim yaw %+7.1f  pitch %+6.1f deg  (turned %+.0f)", range.wrappedYaw, range.pitch, range.yaw),
            "hits \(range.hits) / shots \(range.shots)  auto-fire \(range.autoFire ? "on" : "off")"
                + (gyroOff ? "   GYRO OFF" : ""),
            "source \(source)",
        ]
        if let s = lastShot {
            lines.append(String(format: "last shot %.1f s: ", s.time) + (s.target.map { "hit target \($0)" } ?? "miss"))
        }
        return lines
    }
}
