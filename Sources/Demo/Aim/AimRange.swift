import Foundation
import Motion

/// The target range's rules, pure: the view's yaw and pitch summed from aim deltas, targets on a
/// ring around the player (the turret of Core Motion's 2010 talk), and shots. A target under the
/// crosshair is hit (auto-fire) or a trigger fires at whatever is there; a hit target drops and
/// stands up again `respawnTime` seconds later. No randomness: a replay is exact.
///
///     var range = AimRange()
///     let shots = range.step(delta, dt: 1.0 / 60, trigger: false)
public struct AimRange: Hashable, Sendable {
    public struct Target: Hashable, Sendable {
        /// Direction from the player, degrees: yaw left of straight ahead, pitch above the horizon.
        public var yaw: Double
        public var pitch: Double
        /// Metres from the player, and the target's half-width.
        public var distance: Double
        public var radius: Double
        /// Range time it stands up again after a hit; nil while it stands.
        public var downUntil: Double?
        public var hits = 0

        public init(yaw: Double, pitch: Double, distance: Double = 12, radius: Double = 0.7) {
            self.yaw = yaw
            self.pitch = pitch
            self.distance = distance
            self.radius = radius
        }

        public var isUp: Bool { downUntil == nil }
        /// Half the angle the target covers, degrees.
        public var angularRadius: Double { atan(radius / distance) * 180 / Double.pi }
    }

    /// A shot: the target index it hit (nil: a miss), where the view pointed, and when.
    public struct Shot: Hashable, Sendable {
        public var time: Double
        public var target: Int?
        public var yaw: Double
        public var pitch: Double
    }

    /// View direction, degrees. Yaw is not wrapped (it counts whole turns, so it can be compared
    /// with the pad's integrated turn); pitch is held within ±`pitchLimit`.
    public var yaw = 0.0
    public var pitch = 0.0
    public var targets: [Target]
    public var time = 0.0
    public var shots = 0
    public var hits = 0
    /// Fire at a target as soon as the crosshair is on it (headless replays; the window can turn it off).
    public var autoFire = true
    public var respawnTime = 1.5
    public static let pitchLimit = 85.0

    public init(targets: [Target] = AimRange.ring) { self.targets = targets }

    /// Eight targets every 45° around the player at 12 m, at heights that vary a little so
    /// pitch matters; offset 22.5° so the start view is empty and a pad at rest shoots nothing.
    public static let ring: [Target] = (0..<8).map { i in
        Target(yaw: 22.5 + Double(i) * 45, pitch: [0, 4, -3, 6, 0, -4, 3, 5][i])
    }

    /// The view's yaw wrapped to −180…180°, for display.
    public var wrappedYaw: Double { Self.wrap(yaw) }

    static func wrap(_ degrees: Double) -> Double {
        let r = (degrees + 180).truncatingRemainder(dividingBy: 360)
        return (r < 0 ? r + 360 : r) - 180
    }

    /// Angle between the view and the target's centre, degrees.
    public func angleToTarget(_ index: Int) -> Double {
        Self.direction(yaw: yaw, pitch: pitch).angle(to: Self.direction(yaw: targets[index].yaw, pitch: targets[index].pitch))
            * 180 / Double.pi
    }

    /// The standing target under the crosshair, if any (the nearest to the centre).
    public var targetUnderCrosshair: Int? {
        var best: (index: Int, angle: Double)?
        for i in targets.indices where targets[i].isUp {
            let a = angleToTarget(i)
            if a <= targets[i].angularRadius, a < (best?.angle ?? .infinity) { best = (i, a) }
        }
        return best?.index
    }

    /// Turns the view by `delta`, advances `dt` seconds (targets stand up again), then fires if
    /// the trigger is pulled or auto-fire finds a target under the crosshair.
    public mutating func step(_ delta: AimDelta, dt: Double, trigger: Bool = false) -> [Shot] {
        yaw += delta.yaw
        pitch = min(Self.pitchLimit, max(-Self.pitchLimit, pitch + delta.pitch))
        time += dt
        for i in targets.indices where (targets[i].downUntil ?? .infinity) <= time { targets[i].downUntil = nil }
        let under = targetUnderCrosshair
        guard trigger || (autoFire && under != nil) else { return [] }
        shots += 1
        if let under {
            hits += 1
            targets[under].hits += 1
            targets[under].downUntil = time + respawnTime
        }
        return [Shot(time: time, target: under, yaw: yaw, pitch: pitch)]
    }

    /// Unit vector for a view direction in the range's world: z up, yaw 0 along +y, yaw left positive.
    public static func direction(yaw: Double, pitch: Double) -> Vector3 {
        let y = yaw * Double.pi / 180, p = pitch * Double.pi / 180
        return Vector3(-sin(y) * cos(p), cos(y) * cos(p), sin(p))
    }
}
