import Engine

/// The mine the track runs through, built once as one mesh: sections of 16 m (rails, sleepers,
/// a timber frame with its lamp, rock walls, the floor), near to far so the depth test hides
/// what lies behind before it is shaded. The mine repeats every two sections (the wall shades
/// alternate), so the renderer draws the same mesh moved along the track by whole periods.
enum CartMine {
    /// Track length, metres, after which the mine looks the same again.
    static let period = 2 * CartMeshes.sectionLength

    /// Sections enough to cover from `behind` metres before a point to `ahead` metres after it,
    /// wherever in the period that point lies.
    static func sectionCount(behind: Float, ahead: Float) -> Int {
        Int(((behind + ahead + period) / CartMeshes.sectionLength).rounded(.up))
    }

    /// Where along the track to place the mesh so that it starts at or before `near`, metres.
    static func origin(coveringFrom near: Float) -> Float {
        (near / period).rounded(.down) * period
    }

    static let railColor = Color(0.62, 0.64, 0.68)
    static let sleeperColor = Color(0.42, 0.27, 0.15)
    static let timberColor = Color(0.48, 0.32, 0.18)
    static let lampColor = Color(1.0, 0.86, 0.45)
    static let floorColor = Color(0.30, 0.22, 0.16)

    /// Rock walls, a little lighter and darker by turns so the speed reads.
    static func wallColor(section: Int) -> Color {
        let shade: Float = section % 2 == 0 ? 0.36 : 0.31
        return Color(shade, shade * 0.82, shade * 0.7)
    }

    /// `sections` sections from y = 0 along +y, in `cart.vert`'s layout.
    static func mesh(sections: Int) -> MeshDesc {
        let length = CartMeshes.sectionLength
        let rails = CartMeshes.rails(), sleepers = CartMeshes.sleepers(), frame = CartMeshes.frame()
        let walls = CartMeshes.walls(), floor = CartMeshes.floor()
        var batch = CartBatch()
        for section in 0..<sections {
            let start = Float(section) * length
            let at = Mat4.translation(Vec3f(0, start, 0))
            batch.append(rails, transform: at, color: railColor)
            batch.append(sleepers, transform: at, color: sleeperColor)
            batch.append(frame, transform: Mat4.translation(Vec3f(0, start + length / 2, 0)), color: timberColor)
            batch.append(CartMeshes.unitBox, transform: Mat4.translation(Vec3f(0, start + length / 2 - 0.3, 4.15))
                         * Mat4.scale(Vec3f(0.3, 0.3, 0.3)), color: lampColor)
            batch.append(walls, transform: at, color: wallColor(section: section))
            batch.append(floor, transform: at, color: floorColor)
        }
        return batch.meshDesc(label: "mine")
    }
}
