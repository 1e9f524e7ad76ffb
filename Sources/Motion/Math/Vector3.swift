import Foundation

/// A three-component vector of `Double`s. Units are carried by the property that holds it
/// (g for acceleration, rad/s for rotation rate, µT for magnetic field).
///
///     let g = Vector3(0, 0, -1)          // gravity lying face up, in g
///     let tilt = g.angle(to: Vector3(0, -1, 0))
public struct Vector3: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable public init(_ x: Double, _ y: Double, _ z: Double) { self.x = x; self.y = y; self.z = z }
    @inlinable public init(x: Double, y: Double, z: Double) { self.x = x; self.y = y; self.z = z }

    public static let zero = Vector3(0, 0, 0)

    @inlinable public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    @inlinable public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    @inlinable public static prefix func - (a: Vector3) -> Vector3 { Vector3(-a.x, -a.y, -a.z) }
    @inlinable public static func * (a: Vector3, s: Double) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }
    @inlinable public static func * (s: Double, a: Vector3) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }
    @inlinable public static func / (a: Vector3, s: Double) -> Vector3 { Vector3(a.x / s, a.y / s, a.z / s) }
    @inlinable public static func += (a: inout Vector3, b: Vector3) { a = a + b }
    @inlinable public static func -= (a: inout Vector3, b: Vector3) { a = a - b }
    @inlinable public static func *= (a: inout Vector3, s: Double) { a = a * s }

    @inlinable public func dot(_ b: Vector3) -> Double { x * b.x + y * b.y + z * b.z }
    @inlinable public func cross(_ b: Vector3) -> Vector3 {
        Vector3(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x)
    }
    @inlinable public var lengthSquared: Double { dot(self) }
    @inlinable public var length: Double { lengthSquared.squareRoot() }
    /// The unit vector in this direction, or `.zero` for a zero vector.
    @inlinable public var normalized: Vector3 {
        let l = length
        return l > 0 ? self / l : .zero
    }
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

    /// Angle between two vectors in radians, 0...π (robust near 0 and π).
    @inlinable public func angle(to b: Vector3) -> Double { atan2(cross(b).length, dot(b)) }

    @inlinable public subscript(i: Int) -> Double {
        get { i == 0 ? x : (i == 1 ? y : z) }
        set { if i == 0 { x = newValue } else if i == 1 { y = newValue } else { z = newValue } }
    }

    public var description: String { "(\(x), \(y), \(z))" }
}
