import Foundation

/// The device's orientation relative to a reference frame, as Core Motion's `CMAttitude`.
///
/// `quaternion` rotates device-frame vectors into the reference frame. Euler angles follow
/// Core Motion: `q = Rz(yaw)·Rx(pitch)·Ry(roll)`, so `pitch = asin(−gravity.y)` and
/// `roll = atan2(gravity.x, −gravity.z)`.
///
///     let start = manager.deviceMotion!.attitude
///     var relative = manager.deviceMotion!.attitude
///     relative.multiply(byInverseOf: start)   // identity right after the reset
public struct Attitude: Hashable, Sendable {
    public var quaternion: Quaternion

    public init(quaternion: Quaternion) { self.quaternion = quaternion }

    public static let identity = Attitude(quaternion: .identity)

    /// Builds `Rz(yaw)·Rx(pitch)·Ry(roll)`; angles in radians.
    public init(roll: Double, pitch: Double, yaw: Double) {
        let qz = Quaternion(axis: Vector3(0, 0, 1), angle: yaw)
        let qx = Quaternion(axis: Vector3(1, 0, 0), angle: pitch)
        let qy = Quaternion(axis: Vector3(0, 1, 0), angle: roll)
        self.init(quaternion: qz * qx * qy)
    }

    /// Reference → device (Core Motion's `rotationMatrix`); see `RotationMatrix`.
    public var rotationMatrix: RotationMatrix { RotationMatrix(rotating: quaternion).transposed }

    /// Rotation about the device's y axis, radians, −π...π.
    public var roll: Double {
        let r = RotationMatrix(rotating: quaternion)
        return atan2(-r.m31, r.m33)
    }
    /// Rotation about the device's x axis, radians, −π/2...π/2.
    public var pitch: Double {
        let r = RotationMatrix(rotating: quaternion)
        return asin(max(-1, min(1, r.m32)))
    }
    /// Rotation about the vertical, radians, −π...π.
    public var yaw: Double {
        let r = RotationMatrix(rotating: quaternion)
        return atan2(-r.m12, r.m22)
    }

    /// Gravity's direction in the device frame, unit length (g): `q* ⊗ (0,0,−1) ⊗ q`.
    public var gravity: Vector3 { quaternion.inverseRotate(Vector3(0, 0, -1)) }

    /// Makes this attitude relative to `reference`: `q ← q_ref* ⊗ q`, as `CMAttitude.multiply(byInverseOf:)`.
    public mutating func multiply(byInverseOf reference: Attitude) {
        quaternion = (reference.quaternion.conjugate * quaternion).normalized
    }

    public func multiplied(byInverseOf reference: Attitude) -> Attitude {
        var a = self
        a.multiply(byInverseOf: reference)
        return a
    }
}
