import Foundation
import Motion

/// Tells a device turned in the hands from a gait: rotation per jolt, the RMS rotation rate
/// (rad/s) over the RMS deviation of |acceleration| from 1 g, both averaged over about 2 s.
/// A step jolts the device much for little rotation; a hand turning the device fast rotates it
/// much for a small jolt. Measured over 2.5 s windows with any jolt (> 0.1 g RMS):
/// MotionSense walking, jogging and stairs (phone in a pocket) 2.8–9.0, mPower's walk 7.8–12.6;
/// BROAD's hand-held rotations (trials 01, 06, 08) 13.4–37.9 (5th–95th percentiles). Above
/// `handTurningRatio` the activity gate does not take the jolts for steps.
public struct HandTurning: Sendable {
    /// Rotation per jolt above which the motion is a hand turning the device, (rad/s)/g.
    public static let handTurningRatio = 14.0
    /// Averaging time, seconds.
    public static let timeConstant = 2.0

    private var rotationSquared = 0.0
    private var joltSquared = 0.0
    private var lastTimestamp: Double?

    public init() {}

    public mutating func push(_ motion: DeviceMotion) {
        let w = motion.rotationRate.lengthSquared
        let jolt = (motion.gravity + motion.userAcceleration).length - 1
        guard w.isFinite, jolt.isFinite, motion.timestamp.isFinite else { return }
        let dt = lastTimestamp.map { min(max(motion.timestamp - $0, 0), 1) } ?? 0
        lastTimestamp = motion.timestamp
        let k = 1 - exp(-dt / Self.timeConstant)
        rotationSquared += (w - rotationSquared) * k
        joltSquared += (jolt * jolt - joltSquared) * k
    }

    /// RMS rotation rate over RMS jolt, (rad/s)/g (0 with no jolt).
    public var rotationPerJolt: Double {
        joltSquared > 0 ? (rotationSquared / joltSquared).squareRoot() : 0
    }

    /// The device turns in the hands rather than jolting with steps.
    public var isTurningInHand: Bool { rotationPerJolt > Self.handTurningRatio }

    public mutating func reset() { self = HandTurning() }
}
