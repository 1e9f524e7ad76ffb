/// A 3×3 matrix, row-major: the rotations and their low-passes in the gyro error estimator.
struct Matrix3: Sendable {
    var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double,
         _ g: Double, _ h: Double, _ i: Double) {
        m = (a, b, c, d, e, f, g, h, i)
    }

    static func diagonal(_ s: Double) -> Matrix3 { Matrix3(s, 0, 0, 0, s, 0, 0, 0, s) }

    /// The rotation matrix of `v ↦ q ⊗ v ⊗ q*` for a unit quaternion.
    init(rotating q: Quaternion) {
        let (w, x, y, z) = (q.w, q.x, q.y, q.z)
        self.init(1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
                  2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                  2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y))
    }

    var row0: Vector3 { Vector3(m.0, m.1, m.2) }
    var row1: Vector3 { Vector3(m.3, m.4, m.5) }
    var row2: Vector3 { Vector3(m.6, m.7, m.8) }

    init(rows r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
        self.init(r0.x, r0.y, r0.z, r1.x, r1.y, r1.z, r2.x, r2.y, r2.z)
    }

    var transposed: Matrix3 { Matrix3(m.0, m.3, m.6, m.1, m.4, m.7, m.2, m.5, m.8) }

    @inline(__always)
    static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let bt = b.transposed
        let (a0, a1, a2) = (a.row0, a.row1, a.row2)
        let (c0, c1, c2) = (bt.row0, bt.row1, bt.row2)
        return Matrix3(a0.dot(c0), a0.dot(c1), a0.dot(c2),
                       a1.dot(c0), a1.dot(c1), a1.dot(c2),
                       a2.dot(c0), a2.dot(c1), a2.dot(c2))
    }

    static func * (a: Matrix3, v: Vector3) -> Vector3 { Vector3(a.row0.dot(v), a.row1.dot(v), a.row2.dot(v)) }

    func scaled(_ s: Double) -> Matrix3 {
        Matrix3(m.0 * s, m.1 * s, m.2 * s, m.3 * s, m.4 * s, m.5 * s, m.6 * s, m.7 * s, m.8 * s)
    }

    /// Σ|a_ij| over each row: the largest |(A·x)_i| for |x_j| ≤ 1.
    var rowAbsoluteSums: Vector3 {
        Vector3(abs(m.0) + abs(m.1) + abs(m.2), abs(m.3) + abs(m.4) + abs(m.5), abs(m.6) + abs(m.7) + abs(m.8))
    }
}
