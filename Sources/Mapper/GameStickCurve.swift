import Foundation

/// A game's stick processing, deflection to turn speed, and its inverse: what gyro-to-stick output
/// (JoyShockMapper's GYRO_OUTPUT = RIGHT_STICK with STICK_UNDEADZONE_INNER/OUTER, STICK_UNPOWER and
/// VIRTUAL_STICK_CALIBRATION; `JoyShock::processGyroStick`) must undo so the game turns at the
/// rate asked for.
///
///     let curve = GameStickCurve(turnSpeed: 360, deadzoneInner: 0.2, deadzoneOuter: 0.05, power: 2)
///     let d = curve.deflection(forTurn: StickPosition(x: 90, y: 0))   // what makes the game turn 90 °/s right
///     curve.turn(forDeflection: d)                                     // ≈ (90, 0)
struct GameStickCurve: Hashable, Sendable {
    /// The game's turn, °/s, at full deflection.
    var turnSpeed: Double
    /// The game's deadzones, fractions of the travel: nothing inside `deadzoneInner`, full speed
    /// within `deadzoneOuter` of the edge.
    var deadzoneInner: Double
    var deadzoneOuter: Double
    /// The game's response power: speed ∝ (live deflection)^power.
    var power: Double

    private var liveZone: Double { 1 - deadzoneInner - deadzoneOuter }

    /// The game's turn, °/s (x right, y up), for a deflection.
    func turn(forDeflection d: StickPosition) -> StickPosition {
        let length = d.magnitude
        guard length > 0, liveZone > 0 else { return .centre }
        let live = min(1, max(0, (length - deadzoneInner) / liveZone))
        let speed = Foundation.pow(live, power > 0 ? power : 1) * turnSpeed
        return StickPosition(x: d.x / length * speed, y: d.y / length * speed)
    }

    /// The deflection that makes the game turn at `turn` °/s (x right, y up): past the inner
    /// deadzone at once, saturated at the outer one when the game cannot turn that fast.
    func deflection(forTurn turn: StickPosition) -> StickPosition {
        let speed = turn.magnitude
        guard speed > 0, turnSpeed > 0, liveZone > 0 else { return .centre }
        let fraction = Foundation.pow(min(1, speed / turnSpeed), 1 / (power > 0 ? power : 1))
        let length = deadzoneInner + fraction * liveZone
        return StickPosition(x: turn.x / speed * length, y: turn.y / speed * length)
    }
}
