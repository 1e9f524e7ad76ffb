import Engine

/// The Utah teapot tessellated from Newell's patches (`TeapotPatches`) into a lit mesh:
/// interleaved position + normal (`[.float3, .float3]`), z up, standing on z = 0, centred on the
/// z axis, in the data's own units (about 6 wide, 3.15 tall).
public enum TeapotMesh {
    /// Vertices and triangle indices; `segments` per patch edge (8 gives 4096 triangles).
    public static func build(segments: Int = 8) -> (vertices: [Float], indices: [UInt32]) {
        var vertices: [Float] = []
        var indices: [UInt32] = []
        for patch in TeapotPatches.patches {
            let points = patch.map { i in
                let p = TeapotPatches.controlPoints[i]
                return Vec3f(p.0, p.1, p.2)
            }
            let part = BezierPatch(points: points).tessellate(segments: segments, baseIndex: UInt32(vertices.count / 6))
            vertices += part.vertices
            indices += part.indices
        }
        return (vertices, indices)
    }

    /// The mesh description for `Graphics.makeMesh`.
    public static func desc(segments: Int = 8) -> MeshDesc {
        let (v, i) = build(segments: segments)
        return MeshDesc(vertices: v, layout: [.float3, .float3], indices: i, label: "teapot")
    }
}
