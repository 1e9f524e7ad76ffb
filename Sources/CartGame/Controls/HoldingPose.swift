import Motion

/// How the player holds the device, which decides the device axis that points to the
/// player's right (the lateral axis). Leaning rolls the device about the axis pointing at the
/// player; "tipping the top toward you" is a positive rotation about the lateral axis (right-
/// hand rule: the top edge comes toward the player), in every pose.
public enum HoldingPose: String, Hashable, Sendable, CaseIterable {
    /// A phone in landscape with its top edge to the player's left (home button right; the
    /// talk's case). Gravity ≈ (−1, 0, 0) held upright.
    case landscapeLeft = "landscape-left"
    /// A phone in landscape with its top edge to the player's right. Gravity ≈ (+1, 0, 0).
    case landscapeRight = "landscape-right"
    /// A gamepad held normally, in the Core-Motion-like pad frame (INPUT_FACTS §1: x right,
    /// y away from the player, z out of the face), or a phone in portrait: x is lateral.
    case gamepad = "gamepad"

    /// Unit vector in the device frame pointing to the player's right.
    public var lateralAxis: Vector3 {
        switch self {
        case .landscapeLeft: return Vector3(0, -1, 0)
        case .landscapeRight: return Vector3(0, 1, 0)
        case .gamepad: return Vector3(1, 0, 0)
        }
    }

    /// Rotation about this axis, rad/s, is positive when the top tips toward the player: the
    /// horizontal axis of the talk, which is the lateral axis in every pose.
    public var tipAxis: Vector3 { lateralAxis }

    /// Picks the pose from gravity (g, device frame) at the start of a game: a device rolled
    /// more than ≈24° onto a long edge, with gravity more along x than y, is a landscape phone;
    /// anything flatter or pitched (a pad in the hands, a portrait phone) is `.gamepad`.
    public static func detect(gravity: Vector3) -> HoldingPose {
        let g = gravity.normalized
        guard g.isFinite, abs(g.x) > 0.4, abs(g.x) > abs(g.y) else { return .gamepad }
        return g.x < 0 ? .landscapeLeft : .landscapeRight
    }
}
