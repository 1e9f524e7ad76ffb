import Engine
import Motion

// The one place Motion's Double types become the renderer's Float types.

extension Vec3f {
    public init(_ v: Vector3) { self.init(Float(v.x), Float(v.y), Float(v.z)) }
}

extension Mat4 {
    /// The rotation `m` as a 4×4 matrix (no translation).
    public init(_ m: RotationMatrix) {
        self = Mat4.rigid(rotationRows: [
            [Float(m.m11), Float(m.m12), Float(m.m13)],
            [Float(m.m21), Float(m.m22), Float(m.m23)],
            [Float(m.m31), Float(m.m32), Float(m.m33)],
        ])
    }

    /// The matrix of `v ↦ q ⊗ v ⊗ q*` for a unit quaternion.
    public init(rotating q: Quaternion) { self.init(RotationMatrix(rotating: q)) }
}
