import Foundation

/// JoyShockMapper's AIM stick mode (README, "Standard AIM mode"; `JoyShock::processStick`): the
/// stick's deflection past STICK_DEADZONE_INNER, scaled to reach 1 at STICK_DEADZONE_OUTER from
/// the edge and raised to STICK_POWER, sets a turn speed up to STICK_SENS °/s.
enum StickAim {
    /// The view's turn, °/s, x right and y up, for a stick deflection.
    static func turnRate(_ stick: StickPosition, settings: StickSettings) -> StickPosition {
        let length = stick.magnitude
        let liveZone = 1 - settings.deadzoneInner - settings.deadzoneOuter
        guard length > settings.deadzoneInner, liveZone > 0 else { return .centre }
        let live = min(1, (length - settings.deadzoneInner) / liveZone)
        // STICK_POWER 0 means any deflection past the inner deadzone is full speed (JSM README).
        let shaped = settings.aimPower > 0 ? pow(live, settings.aimPower) : 1
        let speed = shaped * settings.aimSpeed
        return StickPosition(x: stick.x / length * speed, y: stick.y / length * speed)
    }
}
