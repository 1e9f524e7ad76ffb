import Foundation

/// A Hamilton quaternion, scalar first. As an attitude it rotates device-frame vectors into the
/// reference frame: `v_ref = q ⊗ v_dev ⊗ q*` (Core Motion's and BROAD's convention).
public struct Quaternion: Hashable, Sendable, CustomStringConvertible {
    public var w: Double
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable public init(w: Double, x: Double, y: Double, z: Double) { self.w = w; self.x = x; self.y = y; self.z = z }

    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// Rotation by `angle` radians about `axis` (right-hand rule). The axis need not be unit length.
    @inlinable public init(axis: Vector3, angle: Double) {
        let n = axis.normalized
        let s = sin(angle / 2)
        self.init(w: cos(angle / 2), x: n.x * s, y: n.y * s, z: n.z * s)
    }

    /// Hamilton product `a ⊗ b`: apply `b` first, then `a`.
    @inlinable public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    @inlinable public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }
    @inlinable public var norm: Double { (w * w + x * x + y * y + z * z).squareRoot() }
    @inlinable public var normalized: Quaternion {
        let n = norm
        return n > 0 ? Quaternion(w: w / n, x: x / n, y: y / n, z: z / n) : .identity
    }
    @inlinable public var isFinite: Bool { w.isFinite && x.isFinite && y.isFinite && z.isFinite }

    /// `q ⊗ v ⊗ q*` for a unit quaternion.
    @inlinable public func rotate(_ v: Vector3) -> Vector3 {
        // t = 2 (u × v); v' = v + w t + u × t  (avoids building the full product)
        let u = Vector3(x, y, z)
        let t = 2 * u.cross(v)
        return v + w * t + u.cross(t)
    }

    /// `q* ⊗ v ⊗ q`: the inverse rotation, for a unit quaternion.
    @inlinable public func inverseRotate(_ v: Vector3) -> Vector3 { conjugate.rotate(v) }

    /// Rotation angle in radians, 0...π.
    @inlinable public var angle: Double { 2 * atan2(Vector3(x, y, z).length, abs(w)) }

    /// The angle in radians of the rotation that takes `self` to `other`.
    @inlinable public func angle(to other: Quaternion) -> Double { (conjugate * other).angle }

    public var description: String { "Quaternion(w: \(w), x: \(x), y: \(y), z: \(z))" }
}
