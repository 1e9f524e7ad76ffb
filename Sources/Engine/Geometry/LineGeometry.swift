/// Vertex data for line meshes drawn with the `color` shader: `[x, y, z, r, g, b, a]` per vertex,
/// two vertices per segment (`MeshDesc(vertices:, layout: [.float3, .float4], primitive: .lines)`).
public enum LineGeometry {
    /// Floats per vertex.
    public static let stride = 7

    /// A square grid in the z = `height` plane centred on the origin, `halfExtent` world units each
    /// way with a line every `spacing`; every `majorEvery`-th line uses `majorColor`.
    public static func grid(halfExtent: Float, spacing: Float, height: Float = 0, color: Color,
                            majorColor: Color, majorEvery: Int = 5) -> [Float] {
        var v: [Float] = []
        let count = Int((halfExtent / spacing).rounded())
        for k in -count...count {
            let t = Float(k) * spacing
            let c = k % majorEvery == 0 ? majorColor : color
            v += segment(Vec3f(t, -halfExtent, height), Vec3f(t, halfExtent, height), c)
            v += segment(Vec3f(-halfExtent, t, height), Vec3f(halfExtent, t, height), c)
        }
        return v
    }

    /// The x, y and z axes from the origin, `length` long, in red, green and blue.
    public static func axes(length: Float, origin: Vec3f = .zero) -> [Float] {
        segment(origin, origin + Vec3f(length, 0, 0), Color(1, 0.2, 0.2))
            + segment(origin, origin + Vec3f(0, length, 0), Color(0.2, 1, 0.3))
            + segment(origin, origin + Vec3f(0, 0, length), Color(0.3, 0.5, 1))
    }

    public static func segment(_ a: Vec3f, _ b: Vec3f, _ c: Color) -> [Float] {
        [a.x, a.y, a.z, c.r, c.g, c.b, c.a, b.x, b.y, b.z, c.r, c.g, c.b, c.a]
    }
}
