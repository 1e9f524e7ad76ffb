import Foundation

/// JoyShockMapper's flick stick (README, "FLICK mode"; `JoyShock::handleFlickStick`): pushing the
/// stick to its edge turns the view to face the stick's direction (forward = no turn, right = 90°
/// right, back = 180°), spread over FLICK_TIME with an ease-out; rotating the stick while it is
/// held turns the view by the same angle at once, the smallest steps smoothed to hide the stick's
/// coarse resolution. The flick finishes even if the stick is let go.
///
///     var flick = FlickStick()
///     let yaw = flick.update(StickPosition(x: 1, y: 0), time: t, profile: p, settings: p.rightStick)
///     // yaw < 0: the view turns right, in degrees, a share of 90° now and the rest over 0.1 s
struct FlickStick: Hashable, Sendable {
    private var flicking = false
    private var started = 0.0
    /// The flick's angle, radians, left positive (JSM's delta_flick).
    private var flickAngle = 0.0
    /// Progress through the flick, 0…1 (1: done, nothing to emit).
    private var progress = 1.0
    private var lastStickAngle = 0.0
    private var smoothing = RotationSmoothing()

    /// The view's turn for this update, degrees, left positive (AimDelta's sign).
    mutating func update(_ stick: StickPosition, time: Double, profile: MapperProfile, settings: StickSettings) -> Double {
        var turn = 0.0
        // Engaged at the outer deadzone, released a little inside it (JSM's 0.9 hysteresis).
        let edge = max(0.01, 1 - settings.deadzoneOuter) * (flicking ? 0.9 : 1)
        if stick.magnitude >= edge {
            let angle = atan2(-stick.x, stick.y)
            if !flicking {
                flicking = true
                started = time
                flickAngle = Self.snapped(angle, profile: profile)
                progress = 0
                smoothing.reset()
            } else {
                var change = remainder(angle - lastStickAngle, 2 * .pi)   // −π…π
                if change == -.pi { change = .pi }
                let threshold = profile.rotateSmoothThreshold ?? RotationSmoothing.automaticThreshold
                turn += smoothing.smooth(change, lower: threshold, upper: threshold * 2)
            }
            lastStickAngle = angle
        } else if flicking {
            flicking = false
            turn += smoothing.flush()
        }
        turn += advanceFlick(to: time, profile: profile)
        return turn * 180 / .pi
    }

    /// The flick's share between the last update and `time`, radians (ease-out: 1 − (1 − p)²).
    private mutating func advanceFlick(to time: Double, profile: MapperProfile) -> Double {
        guard progress < 1 else { return 0 }
        var duration = profile.flickTime
        if flickAngle != 0, profile.flickTimeExponent != 0 {
            duration *= pow(abs(flickAngle) / .pi, profile.flickTimeExponent)
        }
        // Never backwards: a clock that steps back holds the flick rather than undoing it.
        let now = duration > 0 ? min(1, max(progress, (time - started) / duration)) : 1
        let shaped = { (p: Double) in 1 - (1 - p) * (1 - p) }
        let share = (shaped(now) - shaped(progress)) * flickAngle
        progress = now
        return share
    }

    /// FLICK_SNAP_MODE lerped by FLICK_SNAP_STRENGTH, then FLICK_DEADZONE_ANGLE, as JSM does.
    static func snapped(_ angle: Double, profile: MapperProfile) -> Double {
        var angle = angle
        if profile.flickSnapMode != .none {
            let interval = 2 * Double.pi / Double(profile.flickSnapMode.rawValue)
            let snap = (angle / interval).rounded() * interval
            angle += (snap - angle) * profile.flickSnapStrength
        }
        if abs(angle) * 180 / .pi < profile.flickDeadzoneAngle { angle = 0 }
        return angle
    }
}

/// JoyShockMapper's smoothing of small flick-stick rotations (`getSmoothedStickRotation`): each
/// change is split by its size into a direct part, weight clamp((|Δ| − lower)/(upper − lower)), and
/// the rest, averaged over the last `count` updates; nothing is lost, only spread.
struct RotationSmoothing: Hashable, Sendable {
    /// JSM's automatic threshold, radians per update: twice its 0.01 rad stick step.
    static let automaticThreshold = 0.02
    /// JSM's 64 ms window at its 4 ms tick (a pad's 250 Hz reports).
    static let count = 16
    private var parts = [Double](repeating: 0, count: RotationSmoothing.count)
    private var front = 0
    /// Smoothed rotation taken in but not yet given out, radians.
    private var owed = 0.0

    mutating func smooth(_ change: Double, lower: Double, upper: Double) -> Double {
        let direct = upper > lower ? min(1, max(0, (abs(change) - lower) / (upper - lower))) : 1
        front = (front + Self.count - 1) % Self.count
        parts[front] = change * (1 - direct)
        var sum = 0.0
        for i in parts.indices { sum += parts[i] }
        let average = sum / Double(Self.count)
        owed += parts[front] - average
        return average + change * direct
    }

    /// What is still owed, given out at once (the stick let go: the whole rotation counts, which
    /// a turn-for-turn calibration relies on); the smoothing starts empty.
    mutating func flush() -> Double {
        defer { reset() }
        return owed
    }

    mutating func reset() {
        for i in parts.indices { parts[i] = 0 }
        front = 0
        owed = 0
    }
}
