import Foundation

/// A 4×4 `Float` matrix, column-major as OpenGL expects (`m[column * 4 + row]`), acting on
/// column vectors: `p' = M · p`, so `a * b` applies `b` first.
///
///     let mvp = projection * view * Mat4.translation(Vec3f(0, 0, -2))
public struct Mat4: Hashable, Sendable {
    /// The 16 entries, column after column (a value type: no allocation per matrix).
    public var m: SIMD16<Float>

    /// From 16 entries in column-major order.
    public init(columnMajor m: [Float]) {
        precondition(m.count == 16, "Mat4 needs 16 entries")
        self.m = SIMD16(m)
    }

    public init(columnMajor m: SIMD16<Float>) { self.m = m }

    /// From rows, which reads like the matrix on paper.
    public init(rows r: [[Float]]) {
        var m = SIMD16<Float>(repeating: 0)
        for row in 0..<4 { for col in 0..<4 { m[col * 4 + row] = r[row][col] } }
        self.m = m
    }

    public static let identity = Mat4(columnMajor: SIMD16<Float>(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))

    @inlinable public subscript(row: Int, column: Int) -> Float {
        get { m[column * 4 + row] }
        set { m[column * 4 + row] = newValue }
    }

    public static func * (a: Mat4, b: Mat4) -> Mat4 {
        var r = SIMD16<Float>(repeating: 0)
        for col in 0..<4 {
            for row in 0..<4 {
                var s: Float = 0
                for k in 0..<4 { s += a.m[k * 4 + row] * b.m[col * 4 + k] }
                r[col * 4 + row] = s
            }
        }
        return Mat4(columnMajor: r)
    }

    /// `M · (p, 1)` divided by w: a point through the full (possibly projective) transform.
    public func transformPoint(_ p: Vec3f) -> Vec3f {
        let x = self[0, 0] * p.x + self[0, 1] * p.y + self[0, 2] * p.z + self[0, 3]
        let y = self[1, 0] * p.x + self[1, 1] * p.y + self[1, 2] * p.z + self[1, 3]
        let z = self[2, 0] * p.x + self[2, 1] * p.y + self[2, 2] * p.z + self[2, 3]
        let w = self[3, 0] * p.x + self[3, 1] * p.y + self[3, 2] * p.z + self[3, 3]
        return w != 0 && w != 1 ? Vec3f(x / w, y / w, z / w) : Vec3f(x, y, z)
    }

    /// `M · (v, 0)`: a direction through the linear part only.
    public func transformDirection(_ v: Vec3f) -> Vec3f {
        Vec3f(self[0, 0] * v.x + self[0, 1] * v.y + self[0, 2] * v.z,
              self[1, 0] * v.x + self[1, 1] * v.y + self[1, 2] * v.z,
              self[2, 0] * v.x + self[2, 1] * v.y + self[2, 2] * v.z)
    }

    public var transposed: Mat4 {
        var r = self
        for row in 0..<4 { for col in 0..<4 { r[row, col] = self[col, row] } }
        return r
    }

    /// The translation part (last column).
    public var translation: Vec3f { Vec3f(self[0, 3], self[1, 3], self[2, 3]) }

    public static func translation(_ t: Vec3f) -> Mat4 {
        var r = Mat4.identity
        r[0, 3] = t.x; r[1, 3] = t.y; r[2, 3] = t.z
        return r
    }

    public static func scale(_ s: Vec3f) -> Mat4 {
        var r = Mat4.identity
        r[0, 0] = s.x; r[1, 1] = s.y; r[2, 2] = s.z
        return r
    }

    /// Rotation by `angle` radians about `axis` (right-hand rule).
    public static func rotation(axis: Vec3f, angle: Float) -> Mat4 {
        let a = axis.normalized
        let c = cos(angle), s = sin(angle), t = 1 - c
        return Mat4(rows: [
            [t * a.x * a.x + c, t * a.x * a.y - s * a.z, t * a.x * a.z + s * a.y, 0],
            [t * a.x * a.y + s * a.z, t * a.y * a.y + c, t * a.y * a.z - s * a.x, 0],
            [t * a.x * a.z - s * a.y, t * a.y * a.z + s * a.x, t * a.z * a.z + c, 0],
            [0, 0, 0, 1],
        ])
    }

    /// The rigid transform `[R | t]` from a 3×3 rotation given by rows.
    public static func rigid(rotationRows r: [[Float]], translation t: Vec3f = .zero) -> Mat4 {
        Mat4(rows: [
            [r[0][0], r[0][1], r[0][2], t.x],
            [r[1][0], r[1][1], r[1][2], t.y],
            [r[2][0], r[2][1], r[2][2], t.z],
            [0, 0, 0, 1],
        ])
    }

    /// OpenGL perspective projection (right-handed eye space looking down −z, clip z in −w...w).
    /// - Parameters:
    ///   - fovY: vertical field of view, radians.
    ///   - aspect: width / height.
    ///   - near, far: clip distances in world units, both > 0.
    public static func perspective(fovY: Float, aspect: Float, near: Float, far: Float) -> Mat4 {
        let f = 1 / tan(fovY / 2)
        return Mat4(rows: [
            [f / aspect, 0, 0, 0],
            [0, f, 0, 0],
            [0, 0, (far + near) / (near - far), 2 * far * near / (near - far)],
            [0, 0, -1, 0],
        ])
    }

    /// Orthographic projection mapping x in left...right, y in bottom...top, z in −near...−far to clip space.
    public static func orthographic(left: Float, right: Float, bottom: Float, top: Float,
                                    near: Float = -1, far: Float = 1) -> Mat4 {
        Mat4(rows: [
            [2 / (right - left), 0, 0, -(right + left) / (right - left)],
            [0, 2 / (top - bottom), 0, -(top + bottom) / (top - bottom)],
            [0, 0, -2 / (far - near), -(far + near) / (far - near)],
            [0, 0, 0, 1],
        ])
    }

    /// A view matrix for an eye at `eye` looking at `target`, with `up` roughly up on screen.
    public static func lookAt(eye: Vec3f, target: Vec3f, up: Vec3f) -> Mat4 {
        let f = (target - eye).normalized
        var s = f.cross(up).normalized
        if s == .zero { s = f.cross(abs(f.z) < 0.9 ? .unitZ : .unitY).normalized }  // up parallel to f
        let u = s.cross(f)
        return Mat4(rows: [
            [s.x, s.y, s.z, -s.dot(eye)],
            [u.x, u.y, u.z, -u.dot(eye)],
            [-f.x, -f.y, -f.z, f.dot(eye)],
            [0, 0, 0, 1],
        ])
    }

    /// The inverse of a rigid transform `[R | t]` (rotation and translation only): `[Rᵀ | −Rᵀt]`.
    public var rigidInverse: Mat4 {
        let t = translation
        var r = Mat4.identity
        for row in 0..<3 { for col in 0..<3 { r[row, col] = self[col, row] } }
        let it = r.transformDirection(t)
        r[0, 3] = -it.x; r[1, 3] = -it.y; r[2, 3] = -it.z
        return r
    }
}
