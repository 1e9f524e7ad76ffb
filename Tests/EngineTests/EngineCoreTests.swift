import Engine
import Foundation
import Testing
@testable import Engine

/// The engine's pure parts: math, handles, geometry, the font atlas. No GL.
@Suite struct EngineCoreTests {
    static func close(_ a: Vec3f, _ b: Vec3f, _ tolerance: Float = 1e-5) -> Bool { (a - b).length < tolerance }

    @Test func perspectiveMapsTheNearAndFarPlanesToTheClipRange() {
        let p = Mat4.perspective(fovY: .pi / 3, aspect: 16.0 / 9.0, near: 0.5, far: 50)
        #expect(abs(p.transformPoint(Vec3f(0, 0, -0.5)).z + 1) < 1e-5)
        #expect(abs(p.transformPoint(Vec3f(0, 0, -50)).z - 1) < 1e-4)
        // The top edge of the field of view lands on y = 1.
        let top = Vec3f(0, 10 * tan(Float.pi / 6), -10)
        #expect(abs(p.transformPoint(top).y - 1) < 1e-5)
    }

    @Test func lookAtPutsTheEyeAtTheOriginLookingDownMinusZ() {
        let eye = Vec3f(3, -7, 4), target = Vec3f(0.5, 1, 0.25)
        let view = Mat4.lookAt(eye: eye, target: target, up: .unitZ)
        #expect(Self.close(view.transformPoint(eye), .zero))
        let t = view.transformPoint(target)
        #expect(abs(t.x) < 1e-5 && abs(t.y) < 1e-5 && t.z < 0)
        // World up stays up on screen.
        #expect(view.transformDirection(.unitZ).y > 0)
        // Looking straight down along the up vector still gives a valid view.
        let down = Mat4.lookAt(eye: Vec3f(0, 0, 5), target: .zero, up: .unitZ)
        #expect(down.m.indices.allSatisfy { down.m[$0].isFinite })
    }

    @Test func aRigidInverseUndoesTheTransform() {
        let m = Mat4.translation(Vec3f(1, -2, 3)) * Mat4.rotation(axis: Vec3f(1, 2, 3), angle: 0.7)
        let round = m.rigidInverse * m
        for row in 0..<4 { for col in 0..<4 { #expect(abs(round[row, col] - (row == col ? 1 : 0)) < 1e-5) } }
    }

    @Test func rotationFollowsTheRightHandRule() {
        let quarter = Mat4.rotation(axis: .unitZ, angle: .pi / 2)
        #expect(Self.close(quarter.transformDirection(.unitX), .unitY))
        #expect(Self.close(quarter.transformDirection(.unitY), -Vec3f.unitX))
    }

    @Test func staleAndForeignHandlesNameNothing() {
        var pool = HandlePool<String>()
        let a = pool.insert("a")
        #expect(pool.get(a) == "a")
        #expect(pool.remove(a) == "a")
        let b = pool.insert("b")   // reuses the slot with a new generation
        #expect(b & 0xFFFF == a & 0xFFFF)
        #expect(pool.get(a) == nil)
        #expect(pool.get(b) == "b")
        #expect(pool.get(0) == nil)
        #expect(pool.get(0xFFFF_0009) == nil)
    }

    @Test func sizesParseFromTheCommandLineForm() {
        #expect(PixelSize(parsing: "960x540") == PixelSize(width: 960, height: 540))
        #expect(PixelSize(parsing: "960X540") == PixelSize(width: 960, height: 540))
        #expect(PixelSize(parsing: "0x540") == nil)
        #expect(PixelSize(parsing: "960") == nil)
        #expect(PixelSize(parsing: "axb") == nil)
    }

    @Test func theFontAtlasHasInkForEveryVisibleGlyphAndNoneForSpace() {
        let atlas = Overlay.fontAtlas()
        #expect(atlas.pixels.count == atlas.width * atlas.height)
        func ink(_ index: Int) -> Int {
            let ox = (index % 16) * 8, oy = (index / 16) * 8
            var n = 0
            for y in 0..<8 { for x in 0..<8 where atlas.pixels[(oy + y) * atlas.width + ox + x] > 0 { n += 1 } }
            return n
        }
        #expect(ink(0) == 0)   // space
        for index in 1...94 { #expect(ink(index) > 0, "glyph \(index + 32) is blank") }
        #expect(Overlay.measure("ab\nabcd", scale: 2).width == 64)
    }

    @Test func aFlatPatchHasThePlaneNormalEverywhere() {
        var points: [Vec3f] = []
        for i in 0..<4 { for j in 0..<4 { points.append(Vec3f(Float(i), Float(j), 2)) } }
        let patch = BezierPatch(points: points)
        let mesh = patch.tessellate(segments: 4)
        #expect(mesh.vertices.count == 25 * 6)
        #expect(mesh.indices.count == 16 * 6)
        for v in stride(from: 0, to: mesh.vertices.count, by: 6) {
            #expect(abs(mesh.vertices[v + 2] - 2) < 1e-6)
            #expect(abs(mesh.vertices[v + 5] - 1) < 1e-5)   // du × dv = +z
        }
    }
}
