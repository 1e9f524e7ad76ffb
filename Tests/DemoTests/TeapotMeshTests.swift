import Engine
import Testing
@testable import Demo

/// The teapot's mesh, tessellated from Newell's patches. No GL.
@Suite struct TeapotMeshTests {
    @Test func theTeapotMeshSpansNewellsTeapot() {
        let (vertices, indices) = TeapotMesh.build(segments: 6)
        #expect(vertices.count == 32 * 49 * 6)
        #expect(indices.count == 32 * 36 * 6)
        var lo = Vec3f(.infinity, .infinity, .infinity), hi = -lo
        for v in stride(from: 0, to: vertices.count, by: 6) {
            let p = Vec3f(vertices[v], vertices[v + 1], vertices[v + 2])
            lo = Vec3f(min(lo.x, p.x), min(lo.y, p.y), min(lo.z, p.z))
            hi = Vec3f(max(hi.x, p.x), max(hi.y, p.y), max(hi.z, p.z))
            let n = Vec3f(vertices[v + 3], vertices[v + 4], vertices[v + 5])
            #expect(abs(n.length - 1) < 1e-3, "normal at \(p) has length \(n.length)")
        }
        // Handle to spout tip, body width, base to lid knob (Newell's units).
        #expect(abs(lo.x + 3) < 0.05 && abs(hi.x - 3.43) < 0.1)
        #expect(abs(lo.y + 2) < 0.01 && abs(hi.y - 2) < 0.01)
        #expect(abs(lo.z) < 1e-4 && abs(hi.z - 3.15) < 1e-3)
    }
}
