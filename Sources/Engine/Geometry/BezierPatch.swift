/// A bicubic Bézier patch: 16 control points, row by row (`points[4 * i + j]`, i along u, j along v).
public struct BezierPatch: Sendable {
    public var points: [Vec3f]

    public init(points: [Vec3f]) {
        precondition(points.count == 16, "a bicubic patch has 16 control points")
        self.points = points
    }

    /// The point at (u, v) in 0...1 and the two partial derivatives.
    public func evaluate(u: Float, v: Float) -> (point: Vec3f, du: Vec3f, dv: Vec3f) {
        let bu = Self.bernstein(u), bv = Self.bernstein(v)
        let du = Self.bernsteinDerivative(u), dv = Self.bernsteinDerivative(v)
        var p = Vec3f.zero, pu = Vec3f.zero, pv = Vec3f.zero
        for i in 0..<4 {
            for j in 0..<4 {
                let c = points[4 * i + j]
                p += c * (bu[i] * bv[j])
                pu += c * (du[i] * bv[j])
                pv += c * (bu[i] * dv[j])
            }
        }
        return (p, pu, pv)
    }

    /// The unit surface normal du × dv at (u, v). Where the patch collapses to a point (the
    /// teapot's lid tip and bottom centre) one derivative vanishes, so it steps a little inward.
    public func normal(u: Float, v: Float) -> Vec3f {
        let e = evaluate(u: u, v: v)
        let n = e.du.cross(e.dv)
        if n.length > 1e-6 { return n.normalized }
        let nudge: Float = 1e-3
        let f = evaluate(u: min(max(u, nudge), 1 - nudge), v: min(max(v, nudge), 1 - nudge))
        return f.du.cross(f.dv).normalized
    }

    /// An (n+1)×(n+1) grid of positions and normals with 2·n² triangles, as interleaved
    /// `[px, py, pz, nx, ny, nz]` floats and indices starting at `baseIndex`.
    /// Triangles wind counter-clockwise around du × dv.
    public func tessellate(segments n: Int, baseIndex: UInt32 = 0) -> (vertices: [Float], indices: [UInt32]) {
        var vertices: [Float] = []
        vertices.reserveCapacity((n + 1) * (n + 1) * 6)
        for i in 0...n {
            for j in 0...n {
                let u = Float(i) / Float(n), v = Float(j) / Float(n)
                let p = evaluate(u: u, v: v).point
                let nn = normal(u: u, v: v)
                vertices += [p.x, p.y, p.z, nn.x, nn.y, nn.z]
            }
        }
        var indices: [UInt32] = []
        indices.reserveCapacity(n * n * 6)
        let row = UInt32(n + 1)
        for i in 0..<UInt32(n) {
            for j in 0..<UInt32(n) {
                let a = baseIndex + i * row + j, b = a + row, c = b + 1, d = a + 1
                indices += [a, b, c, a, c, d]
            }
        }
        return (vertices, indices)
    }

    private static func bernstein(_ t: Float) -> [Float] {
        let s = 1 - t
        return [s * s * s, 3 * t * s * s, 3 * t * t * s, t * t * t]
    }

    private static func bernsteinDerivative(_ t: Float) -> [Float] {
        let s = 1 - t
        return [-3 * s * s, 3 * s * s - 6 * t * s, 6 * t * s - 3 * t * t, 3 * t * t]
    }
}
