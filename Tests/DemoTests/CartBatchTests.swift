import Engine
import Testing
@testable import Demo

/// Merging shapes into the cart game's vertex-coloured meshes (pure: no GL).
@Suite struct CartBatchTests {
    func vertex(_ batch: CartBatch, _ i: Int) -> (position: Vec3f, normal: Vec3f, color: Vec3f) {
        let v = Array(batch.vertices[i * 9..<i * 9 + 9])
        return (Vec3f(v[0], v[1], v[2]), Vec3f(v[3], v[4], v[5]), Vec3f(v[6], v[7], v[8]))
    }

    @Test func aPlacedBoxKeepsItsShapeAndOutwardUnitNormals() {
        let centre = Vec3f(3, 40, 1)
        let transform = Mat4.translation(centre) * Mat4.rotation(axis: .unitZ, angle: 0.7) * Mat4.scale(Vec3f(0.5, 2, 4))
        var batch = CartBatch()
        batch.append(CartMeshes.box(), transform: transform, color: Color(0.1, 0.2, 0.3))
        #expect(batch.vertexCount == 24)
        #expect(batch.indices.count == 36)
        let unit = CartMeshes.box()
        for i in 0..<batch.vertexCount {
            let (p, n, c) = vertex(batch, i)
            let expected = transform.transformPoint(Vec3f(unit.vertices[i * 6], unit.vertices[i * 6 + 1], unit.vertices[i * 6 + 2]))
            #expect((p - expected).length < 1e-5)
            #expect(abs(n.length - 1) < 1e-5)
            // The normal points away from the box's centre along the face it belongs to, even
            // though the box is stretched unevenly (a naive M·n would tilt it).
            let local = Vec3f(unit.vertices[i * 6 + 3], unit.vertices[i * 6 + 4], unit.vertices[i * 6 + 5])
            let faceCentre = centre + Mat4.rotation(axis: .unitZ, angle: 0.7).transformDirection(
                Vec3f(local.x * 0.25, local.y * 1, local.z * 2))
            #expect((p - faceCentre).dot(n).magnitude < 1e-4)  // in the face's plane
            #expect((faceCentre - centre).dot(n) > 0)
            #expect(c == Vec3f(0.1, 0.2, 0.3))
        }
    }

    @Test func laterShapesIndexTheirOwnVerticesAndUnindexedShapesGetIndices() {
        var batch = CartBatch()
        batch.append(CartMeshes.box(), color: .white)
        batch.append(CartMeshes.gem(), transform: Mat4.translation(Vec3f(0, 10, 0)), color: .red)
        let gemVertices = CartMeshes.gem().vertices.count / 6
        #expect(batch.vertexCount == 24 + gemVertices)
        #expect(batch.indices.count == 36 + gemVertices)
        #expect(Array(batch.indices[36...]) == (24..<UInt32(24 + gemVertices)).map { $0 })
        #expect(vertex(batch, 24).position.y > 9)
        let desc = batch.meshDesc(label: "t")
        #expect(desc.floatsPerVertex == 9)
        #expect(desc.vertices.count == batch.vertexCount * 9)
        batch.removeAll()
        #expect(batch.isEmpty && batch.vertexCount == 0)
    }
}
