import Motion

/// The two scalars the gesture detectors buffer, from one pushed `DeviceMotion`.
public enum GestureSignals {
    /// Rotation rate about the pose's tip axis, rad/s: positive when the top tips toward the player.
    public static func tipRate(_ motion: DeviceMotion, pose: HoldingPose) -> Double {
        motion.rotationRate.dot(pose.tipAxis)
    }

    /// User acceleration projected on gravity's direction, g. Core Motion's user acceleration is
    /// measured acceleration minus gravity with Apple's sign (at rest the accelerometer reads
    /// gravity, pointing down), so moving the device downward reads negative here, as x-io's
    /// knocks do (−0.5 to −0.8 g).
    public static func downwardPush(_ motion: DeviceMotion) -> Double {
        let down = motion.gravity.normalized
        return motion.userAcceleration.dot(down)
    }
}
