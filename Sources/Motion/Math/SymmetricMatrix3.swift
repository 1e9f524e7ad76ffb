import Foundation

/// A symmetric 3×3 matrix: a magnetometer's soft-iron correction (`MagnetometerCalibration.softIron`).
///
///     let m = SymmetricMatrix3(xx: 2, yy: 1, zz: 1, xy: 0.5, xz: 0, yz: 0)
///     let (values, vectors) = m.eigen()      // ascending values, unit vectors as columns
public struct SymmetricMatrix3: Hashable, Sendable {
    public var xx, yy, zz, xy, xz, yz: Double

    public init(xx: Double, yy: Double, zz: Double, xy: Double = 0, xz: Double = 0, yz: Double = 0) {
        self.xx = xx; self.yy = yy; self.zz = zz
        self.xy = xy; self.xz = xz; self.yz = yz
    }

    public static let identity = SymmetricMatrix3(xx: 1, yy: 1, zz: 1)

    public static func diagonal(_ d: Vector3) -> SymmetricMatrix3 { SymmetricMatrix3(xx: d.x, yy: d.y, zz: d.z) }

    public var isDiagonal: Bool { xy == 0 && xz == 0 && yz == 0 }

    public static func * (m: SymmetricMatrix3, v: Vector3) -> Vector3 {
        Vector3(m.xx * v.x + m.xy * v.y + m.xz * v.z,
                m.xy * v.x + m.yy * v.y + m.yz * v.z,
                m.xz * v.x + m.yz * v.y + m.zz * v.z)
    }

    /// Eigenvalues in ascending order and their unit eigenvectors (as the columns, in the same order),
    /// by cyclic Jacobi rotations: exact to rounding for a symmetric matrix, and three by three needs
    /// only a handful of sweeps.
    public func eigen() -> (values: Vector3, vectors: [Vector3]) {
        var a = [[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]]
        var v: [[Double]] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
        for _ in 0..<50 {
            let off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2]
            let scale = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2]
            if off <= 1e-30 * max(scale, 1e-300) { break }
            for (p, q) in [(0, 1), (0, 2), (1, 2)] where a[p][q] != 0 {
                // The rotation in the (p, q) plane that zeroes a[p][q] (Golub & Van Loan, §8.5.2).
                let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
                let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                let c = 1 / (t * t + 1).squareRoot(), s = t * c
                for k in 0..<3 {
                    let akp = a[k][p], akq = a[k][q]
                    a[k][p] = c * akp - s * akq
                    a[k][q] = s * akp + c * akq
                }
                for k in 0..<3 {
                    let apk = a[p][k], aqk = a[q][k]
                    a[p][k] = c * apk - s * aqk
                    a[q][k] = s * apk + c * aqk
                }
                for k in 0..<3 {
                    let vkp = v[k][p], vkq = v[k][q]
                    v[k][p] = c * vkp - s * vkq
                    v[k][q] = s * vkp + c * vkq
                }
            }
        }
        let order = [0, 1, 2].sorted { a[$0][$0] < a[$1][$1] }
        return (Vector3(a[order[0]][order[0]], a[order[1]][order[1]], a[order[2]][order[2]]),
                order.map { Vector3(v[0][$0], v[1][$0], v[2][$0]) })
    }

    /// Σ λᵢ vᵢ vᵢᵀ: with `eigen()`'s vectors and a function of its values, that function of the
    /// matrix (its inverse, its square root).
    static func compose(_ values: [Double], _ vectors: [Vector3]) -> SymmetricMatrix3 {
        var m = SymmetricMatrix3(xx: 0, yy: 0, zz: 0)
        for (l, v) in zip(values, vectors) {
            m.xx += l * v.x * v.x; m.yy += l * v.y * v.y; m.zz += l * v.z * v.z
            m.xy += l * v.x * v.y; m.xz += l * v.x * v.z; m.yz += l * v.y * v.z
        }
        return m
    }
}
