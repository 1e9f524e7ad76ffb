import Engine

/// The cart game's shapes, all lit (`[.float3 position, .float3 normal]`): unit-sized ones (box,
/// gem) placed by a transform, and the pieces of one 16 m section of mine. `CartBatch`
/// merges them into the meshes the renderer draws.
enum CartMeshes {
    /// `box()` and `gem()`, made once for the shapes placed anew every frame.
    static let unitBox = box()
    static let unitGem = gem()

    /// A cube from −0.5 to 0.5 on each axis, flat-shaded (four vertices per face).
    static func box() -> MeshDesc {
        var vertices: [Float] = []
        var indices: [UInt32] = []
        let faces: [(normal: Vec3f, u: Vec3f, v: Vec3f)] = [
            (.unitX, .unitY, .unitZ), (-Vec3f.unitX, .unitZ, .unitY),
            (.unitY, .unitZ, .unitX), (-Vec3f.unitY, .unitX, .unitZ),
            (.unitZ, .unitX, .unitY), (-Vec3f.unitZ, .unitY, .unitX),
        ]
        for face in faces {
            let base = UInt32(vertices.count / 6)
            for (su, sv) in [(-1, -1), (1, -1), (1, 1), (-1, 1)] as [(Float, Float)] {
                let p = face.normal * 0.5 + face.u * (0.5 * su) + face.v * (0.5 * sv)
                vertices += [p.x, p.y, p.z, face.normal.x, face.normal.y, face.normal.z]
            }
            indices += [base, base + 1, base + 2, base, base + 2, base + 3]
        }
        return MeshDesc(vertices: vertices, layout: [.float3, .float3], indices: indices, label: "box")
    }

    /// Many axis-aligned boxes (centre, size, metres) in one shape: a whole stretch of sleepers
    /// or wall.
    static func boxes(_ parts: [(center: Vec3f, size: Vec3f)], label: String) -> MeshDesc {
        let unit = box()
        var vertices: [Float] = []
        var indices: [UInt32] = []
        for part in parts {
            let base = UInt32(vertices.count / 6)
            for v in stride(from: 0, to: unit.vertices.count, by: 6) {
                vertices += [unit.vertices[v] * part.size.x + part.center.x,
                             unit.vertices[v + 1] * part.size.y + part.center.y,
                             unit.vertices[v + 2] * part.size.z + part.center.z,
                             unit.vertices[v + 3], unit.vertices[v + 4], unit.vertices[v + 5]]
            }
            indices += unit.indices.map { $0 + base }
        }
        return MeshDesc(vertices: vertices, layout: [.float3, .float3], indices: indices, label: label)
    }

    /// Length, metres, of the repeating stretch of mine the renderer draws section by section.
    static let sectionLength: Float = 16

    /// One 16 m stretch of sleepers (every 1.2 m would not tile 16 m: every 16/13 m).
    static func sleepers() -> MeshDesc {
        let spacing = sectionLength / 13
        return boxes((0..<13).map { (Vec3f(0, Float($0) * spacing, 0.03), Vec3f(2.4, 0.28, 0.14)) }, label: "sleepers")
    }

    /// One 16 m stretch of rock wall on both sides, in two slabs per side.
    static func walls() -> MeshDesc {
        boxes([(Vec3f(-6.2, 4, 2.2), Vec3f(2.2, 8, 5.6)), (Vec3f(6.2, 4, 2.2), Vec3f(2.2, 8, 5.6)),
               (Vec3f(-6.0, 12, 2.2), Vec3f(2.2, 8, 5.6)), (Vec3f(6.0, 12, 2.2), Vec3f(2.2, 8, 5.6))], label: "walls")
    }

    /// One 16 m stretch of both rails.
    static func rails() -> MeshDesc {
        boxes([(Vec3f(-0.62, sectionLength / 2, 0.17), Vec3f(0.1, sectionLength, 0.14)),
               (Vec3f(0.62, sectionLength / 2, 0.17), Vec3f(0.1, sectionLength, 0.14))], label: "rails")
    }

    /// One 16 m stretch of the mine floor from wall to wall, its top only (nothing sees the
    /// rest), in 1 m strips: lighting and fog are computed per vertex, and short strips keep
    /// them smooth along the track.
    static func floor() -> MeshDesc {
        var vertices: [Float] = []
        var indices: [UInt32] = []
        let halfWidth: Float = 7.3, top: Float = -0.05
        for strip in 0..<Int(sectionLength) {
            let base = UInt32(vertices.count / 6)
            let y0 = Float(strip), y1 = Float(strip + 1)
            for (x, y) in [(-halfWidth, y0), (halfWidth, y0), (halfWidth, y1), (-halfWidth, y1)] {
                vertices += [x, y, top, 0, 0, 1]
            }
            indices += [base, base + 1, base + 2, base, base + 2, base + 3]
        }
        return MeshDesc(vertices: vertices, layout: [.float3, .float3], indices: indices, label: "floor")
    }

    /// A timber frame: two posts and a lintel the cart passes under.
    static func frame() -> MeshDesc {
        boxes([(Vec3f(-4.6, 0, 2.2), Vec3f(0.4, 0.4, 4.4)), (Vec3f(4.6, 0, 2.2), Vec3f(0.4, 0.4, 4.4)),
               (Vec3f(0, 0, 4.5), Vec3f(9.8, 0.45, 0.4))], label: "frame")
    }

    /// A gem: an octahedron with radius 0.5, flat-shaded, stretched 1.4× along z like a cut stone.
    static func gem() -> MeshDesc {
        let tips: [Vec3f] = [Vec3f(0, 0, 0.7), Vec3f(0, 0, -0.7)]
        let ring: [Vec3f] = [Vec3f(0.5, 0, 0), Vec3f(0, 0.5, 0), Vec3f(-0.5, 0, 0), Vec3f(0, -0.5, 0)]
        var vertices: [Float] = []
        for tip in tips {
            for i in 0..<4 {
                var a = ring[i], b = ring[(i + 1) % 4]
                if tip.z < 0 { swap(&a, &b) }
                let n = (a - tip).cross(b - tip).normalized
                for p in [tip, a, b] { vertices += [p.x, p.y, p.z, n.x, n.y, n.z] }
            }
        }
        return MeshDesc(vertices: vertices, layout: [.float3, .float3], label: "gem")
    }
}
