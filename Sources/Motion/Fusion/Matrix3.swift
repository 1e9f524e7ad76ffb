/// A 3×3 matrix, row-major: rotations and the rate sum in the gyro error estimator.
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

    var transposed: Matrix3 { Matrix3(m.0, m.3, m.6, m.1, m.4, m.7, m.2, m.5, m.8) }
}
