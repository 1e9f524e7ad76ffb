import Foundation
import Motion

/// The talk's lean: split gravity into its component along the device's lateral axis and
/// its component in the plane of the other two axes; the lean is the angle between them.
/// Tipping the device back or forward moves gravity only within that plane, so the player
/// may hold the device at any comfortable pitch and still steer.
public enum LeanAngle {
    /// Radians, positive when the player's right side of the device dips; −π/2 … π/2.
    /// Returns 0 for a zero or non-finite gravity (no estimate yet).
    public static func lean(gravity: Vector3, pose: HoldingPose) -> Double {
        guard gravity.isFinite, gravity.lengthSquared > 0 else { return 0 }
        let lateral = gravity.dot(pose.lateralAxis)
        let inPlane = (gravity - pose.lateralAxis * lateral).length
        return atan2(lateral, inPlane)
    }
}
