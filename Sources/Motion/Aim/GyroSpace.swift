import Foundation

/// Which rotation of the pad turns the view left/right and up/down (GyroWiki, "Player space
/// gyro and alternatives explained"; reference code: JibbSmart/GamepadMotionHelpers,
/// `CalculatePlayerSpaceGyro` / `CalculateWorldSpaceGyro`; the lean variants from
/// JoyShockMapper's `main.cpp`, GYRO_SPACE = PLAYER_LEAN / WORLD_LEAN).
///
/// Axes are Tiltkit's device frame (Core Motion's): x right, y forward (the pad's top edge), z out of
/// the face; a pad lying face-up reads gravity (0, 0, −1) g. GamepadMotionHelpers' frame is x right,
/// y up out of the face, z toward the player, so its y is our z and its z is our −y.
public enum GyroSpace: String, CaseIterable, Hashable, Sendable {
    /// The pad's own axes: yaw about its z (out of the face), pitch about its x. Ignores gravity;
    /// a pad held tilted yaws less than it turns in the room.
    case local
    /// Yaw about the gravity direction, with the pad's pitch and roll rates combined by gravity but
    /// never more than the pad actually turned (GyroWiki's "player turn" space); pitch about the pad's x.
    case player
    /// Yaw about the gravity direction; pitch about the pad's x projected onto the horizontal plane,
    /// faded out as the pad points near vertical.
    case world
    /// Yaw from leaning the pad left/right (rolling it about the horizontal axis it points along),
    /// relaxed and capped like `player`, faded out near vertical; pitch about the pad's x.
    case playerLean = "player-lean"
    /// Yaw from the rate about the world's roll axis (horizontal, along the pad's pointing
    /// direction), faded out near vertical; pitch as in `world`.
    case worldLean = "world-lean"
}

/// Aim rates, rad/s: positive yaw turns the view left (counterclockwise seen from above, as a
/// right-handed turn about world up), positive pitch turns it up.
public struct AimRate: Hashable, Sendable {
    public var yaw: Double
    public var pitch: Double

    public init(yaw: Double, pitch: Double) {
        self.yaw = yaw
        self.pitch = pitch
    }

    public static let zero = AimRate(yaw: 0, pitch: 0)
    /// Speed of the aim, rad/s (what the acceleration curve and smoothing look at).
    public var magnitude: Double { (yaw * yaw + pitch * pitch).squareRoot() }
    public static func * (r: AimRate, s: Double) -> AimRate { AimRate(yaw: r.yaw * s, pitch: r.pitch * s) }
    public static func + (a: AimRate, b: AimRate) -> AimRate { AimRate(yaw: a.yaw + b.yaw, pitch: a.pitch + b.pitch) }
}

extension GyroSpace {
    /// GamepadMotionHelpers' default: world yaw may be scaled up to 1.41× (≈ 1/sin 45°) before the
    /// pad's own yaw-and-roll rate caps it, so a pad held tilted up to ~45° still turns fully.
    public static let defaultYawRelaxFactor = 1.41
    /// JoyShockMapper's PLAYER_LEAN: the roll rate relaxed by up to 1.41× (a 45° buffer) before the
    /// pad's own yaw-and-roll rate caps it.
    public static let leanRelaxFactor = 1.41
    /// GamepadMotionHelpers' default: world-space pitch fades out when both |gravity·y| and
    /// |gravity·z| fall below 2 × this (the pad points nearly straight up or down).
    public static let defaultSideReductionThreshold = 0.125

    /// The aim rate for a bias-corrected `rotationRate` (rad/s) and `gravity` (any length, pointing
    /// down; `DeviceMotion.gravity`), both in the device frame.
    public func aimRate(rotationRate w: Vector3, gravity: Vector3,
                        yawRelaxFactor: Double = GyroSpace.defaultYawRelaxFactor,
                        sideReductionThreshold: Double = GyroSpace.defaultSideReductionThreshold) -> AimRate {
        let g = gravity.normalized
        switch self {
        case .local:
            return AimRate(yaw: w.z, pitch: w.x)
        case .world:
            // Yaw: the rate about world up (−g). Pitch: about the pad's x made horizontal.
            let yaw = -g.dot(w)
            guard let pitchAxis = Self.horizontalPitchAxis(g) else { return AimRate(yaw: yaw, pitch: 0) }
            let reduction = Self.sideReduction(g, threshold: sideReductionThreshold)
            return AimRate(yaw: yaw, pitch: reduction * pitchAxis.dot(w))
        case .worldLean:
            // Yaw: the rate about the world's roll axis (pitch axis × gravity: horizontal, where the
            // pad points); leaning right (right side down) turns right, negative yaw.
            guard let pitchAxis = Self.horizontalPitchAxis(g) else { return .zero }
            let reduction = Self.sideReduction(g, threshold: sideReductionThreshold)
            let roll = pitchAxis.cross(g).normalized
            return AimRate(yaw: -reduction * roll.dot(w), pitch: reduction * pitchAxis.dot(w))
        case .playerLean:
            // As JoyShockMapper: the world roll from the pad's y and z rates only (its pitch axis left
            // out, as player turn does), relaxed and capped by the pad's own yaw-and-roll rate.
            guard let pitchAxis = Self.horizontalPitchAxis(g) else { return AimRate(yaw: 0, pitch: w.x) }
            let roll = pitchAxis.cross(g).normalized
            let worldRoll = roll.y * w.y + roll.z * w.z
            let cap = (w.y * w.y + w.z * w.z).squareRoot()
            let size = min(abs(worldRoll) * Self.leanRelaxFactor, cap) * Self.sideReduction(g, threshold: sideReductionThreshold)
            return AimRate(yaw: worldRoll < 0 ? size : -size, pitch: w.x)
        case .player:
            // Direction from the world yaw without the pad's pitch axis (x), so an error in gravity
            // cannot leak pitching into yaw; size relaxed but capped by the pad's own yaw+roll rate.
            let worldYaw = -(g.y * w.y + g.z * w.z)
            let cap = (w.y * w.y + w.z * w.z).squareRoot()
            let size = min(abs(worldYaw) * yawRelaxFactor, cap)
            return AimRate(yaw: worldYaw < 0 ? -size : size, pitch: w.x)
        }
    }

    /// The pad's x made horizontal (perpendicular to gravity `g`, unit); nil when x points along gravity.
    static func horizontalPitchAxis(_ g: Vector3) -> Vector3? {
        let axis = Vector3(1, 0, 0) - g * g.x
        return axis.lengthSquared > 0 ? axis.normalized : nil
    }

    /// GamepadMotionHelpers' side reduction: 1 while gravity lies mostly along the pad's y or z,
    /// fading to 0 as the pad stands on its left or right edge (pitch and lean axes lose meaning).
    static func sideReduction(_ g: Vector3, threshold: Double) -> Double {
        threshold <= 0 ? 1 : min(1, max(0, (max(abs(g.y), abs(g.z)) - threshold) / threshold))
    }
}
