import Foundation

/// A three-component `Float` vector for rendering (positions, directions, colours).
///
///     let eye = Vec3f(0, -6, 4)
///     let forward = (Vec3f.zero - eye).normalized
public struct Vec3f: Hashable, Sendable {
    public var x: Float
    public var y: Float
    public var z: Float

    @inlinable public init(_ x: Float, _ y: Float, _ z: Float) { self.x = x; self.y = y; self.z = z }

    public static let zero = Vec3f(0, 0, 0)
    public static let unitX = Vec3f(1, 0, 0)
    public static let unitY = Vec3f(0, 1, 0)
    public static let unitZ = Vec3f(0, 0, 1)

    @inlinable public static func + (a: Vec3f, b: Vec3f) -> Vec3f { Vec3f(a.x + b.x, a.y + b.y, a.z + b.z) }
    @inlinable public static func - (a: Vec3f, b: Vec3f) -> Vec3f { Vec3f(a.x - b.x, a.y - b.y, a.z - b.z) }
    @inlinable public static prefix func - (a: Vec3f) -> Vec3f { Vec3f(-a.x, -a.y, -a.z) }
    @inlinable public static func * (a: Vec3f, s: Float) -> Vec3f { Vec3f(a.x * s, a.y * s, a.z * s) }
    @inlinable public static func * (s: Float, a: Vec3f) -> Vec3f { Vec3f(a.x * s, a.y * s, a.z * s) }
    @inlinable public static func += (a: inout Vec3f, b: Vec3f) { a = a + b }

    @inlinable public func dot(_ b: Vec3f) -> Float { x * b.x + y * b.y + z * b.z }
    @inlinable public func cross(_ b: Vec3f) -> Vec3f {
        Vec3f(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x)
    }
    @inlinable public var length: Float { dot(self).squareRoot() }
    /// The unit vector in this direction, or `.zero` for a zero vector.
    @inlinable public var normalized: Vec3f {
        let l = length
        return l > 0 ? self * (1 / l) : .zero
    }
}
