import Engine

/// Many lit shapes merged into one vertex-coloured mesh (`cart.vert`'s layout: position,
/// normal, colour), so a whole stretch of mine, or everything that moves in a frame, is one
/// draw call instead of one per box.
///
///     var batch = CartBatch()
///     batch.append(CartMeshes.box(), transform: Mat4.translation(p) * Mat4.scale(size), color: rock)
///     graphics.updateMesh(mesh, vertices: batch.vertices, indices: batch.indices)
struct CartBatch {
    static let layout: [VertexFormat] = [.float3, .float3, .float3]
    static let floatsPerVertex = 9

    private(set) var vertices: [Float] = []
    private(set) var indices: [UInt32] = []

    var vertexCount: Int { vertices.count / Self.floatsPerVertex }
    var isEmpty: Bool { indices.isEmpty }

    /// Adds `shape` (a lit `[.float3 position, .float3 normal]` mesh of triangles) moved by
    /// `transform` and painted `color`. The transform may scale each axis differently: normals of
    /// axis-aligned faces keep their direction under such a scale, and are renormalised.
    mutating func append(_ shape: MeshDesc, transform: Mat4 = .identity, color: Color) {
        let base = UInt32(vertexCount)
        let v = shape.vertices
        vertices.reserveCapacity(vertices.count + v.count / 6 * Self.floatsPerVertex)
        for i in stride(from: 0, to: v.count, by: 6) {
            let p = transform.transformPoint(Vec3f(v[i], v[i + 1], v[i + 2]))
            let n = transform.transformDirection(Vec3f(v[i + 3], v[i + 4], v[i + 5])).normalized
            vertices.append(p.x); vertices.append(p.y); vertices.append(p.z)
            vertices.append(n.x); vertices.append(n.y); vertices.append(n.z)
            vertices.append(color.r); vertices.append(color.g); vertices.append(color.b)
        }
        if shape.indices.isEmpty {
            indices += (0..<UInt32(v.count / 6)).lazy.map { $0 + base }
        } else {
            indices += shape.indices.lazy.map { $0 + base }
        }
    }

    /// Empties the batch, keeping its storage for the next frame.
    mutating func removeAll() {
        vertices.removeAll(keepingCapacity: true)
        indices.removeAll(keepingCapacity: true)
    }

    func meshDesc(label: String) -> MeshDesc {
        MeshDesc(vertices: vertices, layout: Self.layout, indices: indices, label: label)
    }
}
