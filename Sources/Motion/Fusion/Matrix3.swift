/// A 3×3 matrix, row-major, for the gyro-bias Kalman filter (covariance, gain, rotation).
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

    static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let bt = b.transposed
        let (a0, a1, a2) = (a.row0, a.row1, a.row2)
        let (c0, c1, c2) = (bt.row0, bt.row1, bt.row2)
        return Matrix3(a0.dot(c0), a0.dot(c1), a0.dot(c2),
                       a1.dot(c0), a1.dot(c1), a1.dot(c2),
                       a2.dot(c0), a2.dot(c1), a2.dot(c2))
    }

    static func * (a: Matrix3, v: Vector3) -> Vector3 { Vector3(a.row0.dot(v), a.row1.dot(v), a.row2.dot(v)) }

    static func - (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(a.m.0 - b.m.0, a.m.1 - b.m.1, a.m.2 - b.m.2, a.m.3 - b.m.3, a.m.4 - b.m.4,
                a.m.5 - b.m.5, a.m.6 - b.m.6, a.m.7 - b.m.7, a.m.8 - b.m.8)
    }

    /// Adds `d` to the diagonal.
    func addingDiagonal(_ d: Vector3) -> Matrix3 {
        var r = self
        r.m.0 += d.x; r.m.4 += d.y; r.m.8 += d.z
        return r
    }

    var diagonal: Vector3 { Vector3(m.0, m.4, m.8) }

    /// The inverse by the adjugate; a singular matrix gives the zero matrix (no update).
    var inverse: Matrix3 {
        let (a, b, c, d, e, f, g, h, i) = m
        let A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g
        let det = a * A + b * B + c * C
        guard det != 0, det.isFinite else { return Matrix3.diagonal(0) }
        let s = 1 / det
        return Matrix3(A * s, -(b * i - c * h) * s, (b * f - c * e) * s,
                       B * s, (a * i - c * g) * s, -(a * f - c * d) * s,
                       C * s, -(a * h - b * g) * s, (a * e - b * d) * s)
    }
}
