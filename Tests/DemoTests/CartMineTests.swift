import Engine
import Testing
@testable import Demo

/// The mine mesh built once and moved along the track by whole periods (pure: no GL).
@Suite struct CartMineTests {
    let length = CartMeshes.sectionLength

    @Test func theMovedMeshAlwaysCoversFromBehindTheCameraToTheEndOfTheFog() {
        let behind: Float = 12, ahead: Float = 112.5
        let sections = CartMine.sectionCount(behind: behind, ahead: ahead)
        let meshLength = Float(sections) * length
        for cart in stride(from: Float(-3), through: 2_000, by: 0.37) {
            let origin = CartMine.origin(coveringFrom: cart - behind)
            #expect(origin <= cart - behind)
            #expect(origin + meshLength >= cart + ahead)
            // Whole periods only, so the alternating wall shades stay where they were.
            #expect((origin / CartMine.period).rounded() * CartMine.period == origin)
        }
    }

    @Test func wallShadesAlternateAndTheFloorHasNoGaps() {
        let sections = 5
        let mesh = CartMine.mesh(sections: sections)
        #expect(mesh.floatsPerVertex == 9)
        #expect(mesh.indices.count % 3 == 0)
        func vertex(_ index: UInt32) -> (position: Vec3f, colour: [Float]) {
            let v = Int(index) * 9
            return (Vec3f(mesh.vertices[v], mesh.vertices[v + 1], mesh.vertices[v + 2]), Array(mesh.vertices[v + 6..<v + 9]))
        }
        let timberColour = [CartMine.timberColor.r, CartMine.timberColor.g, CartMine.timberColor.b]
        let floorColour = [CartMine.floorColor.r, CartMine.floorColor.g, CartMine.floorColor.b]
        var wallColours: [Int: Set<[Float]>] = [:]
        var floorStrips: Set<Float> = []
        for t in stride(from: 0, to: mesh.indices.count, by: 3) {
            let corners = (0..<3).map { vertex(mesh.indices[t + $0]) }
            let centroid = corners.reduce(Vec3f.zero) { $0 + $1.position } * (1 / 3)
            // The rock walls start 4.9 m out (the frame's posts end at 4.8; its lintel reaches 4.9);
            // end faces on a section boundary belong to either side.
            let onBoundary = abs(centroid.y - (centroid.y / length).rounded() * length) < 0.01
            if abs(centroid.x) > 4.85, corners[0].colour != timberColour, !onBoundary {
                wallColours[Int(centroid.y / length), default: []].insert(corners[0].colour)
            }
            if corners[0].colour == floorColour {
                for c in corners {
                    #expect(c.position.z == -0.05)
                    floorStrips.insert(c.position.y)
                }
            }
        }
        for section in 0..<sections {
            let c = CartMine.wallColor(section: section)
            #expect(wallColours[section] == [[c.r, c.g, c.b]])
        }
        #expect(CartMine.wallColor(section: 0) != CartMine.wallColor(section: 1))
        // Strip edges every metre from the start to the end of the mesh.
        #expect(floorStrips == Set((0...sections * Int(length)).map { Float($0) }))
    }

    @Test func nearSectionsComeFirstSoTheDepthTestSparesWhatTheyHide() {
        let mesh = CartMine.mesh(sections: 4)
        let ys = mesh.indices.map { mesh.vertices[Int($0) * 9 + 1] }
        let perSection = ys.count / 4
        for section in 0..<4 {
            let slice = ys[section * perSection..<(section + 1) * perSection]
            #expect(slice.min()! >= Float(section) * length - 0.5)
            #expect(slice.max()! <= Float(section + 1) * length + 0.5)
        }
    }
}
