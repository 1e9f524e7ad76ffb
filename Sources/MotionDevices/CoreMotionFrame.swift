import Motion

/// Conversions from the pads' own frames into Core Motion's device frame, in one place
/// (INPUT_FACTS §1).
///
/// Core Motion's frame for a pad: treat it like a phone lying face-up with its top edge away from
/// the player — x right, y away from the player, z out of the face. Accelerations use Apple's
/// sign: gravity direction, so a pad lying face-up reads (0, 0, −1) g.
public enum CoreMotionFrame {
    /// Standard gravity in m/s² (SDL_STANDARD_GRAVITY, CODATA).
    public static let standardGravity = 9.80665

    /// The PlayStation/SDL controller frame (+x right, +y out of the face, +z toward the player;
    /// DualShock 4, DualSense, hid-playstation, hid-steam): a proper rotation `(x, −z, y)`.
    @inlinable public static func fromPlayStation(_ v: Vector3) -> Vector3 { Vector3(v.x, -v.z, v.y) }

    /// Acceleration in g measured in the PlayStation frame with the reaction sign (+1 g up at rest)
    /// → Core Motion acceleration in g (gravity direction).
    @inlinable public static func accelerationFromPlayStation(g v: Vector3) -> Vector3 { -fromPlayStation(v) }

    /// The Nintendo IMU frame (X toward the triggers, Y left, Z out of the buttons; Switch Pro,
    /// left Joy-Con, hid-nintendo) into the PlayStation frame, as SDL remaps it: `(−Y, Z, −X)`.
    @inlinable public static func playStationFromNintendo(_ v: Vector3) -> Vector3 { Vector3(-v.y, v.z, -v.x) }
}
