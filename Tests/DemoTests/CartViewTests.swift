import CartGame
import Engine
import Testing
@testable import Demo

/// The cart game's pure presentation: interpolation between ticks, state screens, meshes.
@Suite struct CartViewTests {
    let rules = CartRules.standard

    func playing(ticks: Int, lean: Float = 0) -> (CartState, CartState) {
        var state = CartState(seed: 4, rules: rules)
        state.step(CartCommand(start: true), rules: rules)
        var previous = state
        for _ in 0..<ticks {
            previous = state
            state.step(CartCommand(lean: lean), rules: rules)
        }
        return (previous, state)
    }

    @Test func viewBlendsTheLastTwoTicks() {
        let (previous, current) = playing(ticks: 30, lean: 0.5)
        let half = CartView(previous: previous, current: current, alpha: 0.5, rules: rules)
        #expect(abs(half.distance - (previous.distance + current.distance) / 2) < 1e-9)
        #expect(CartView(previous: previous, current: current, alpha: 0, rules: rules).distance == previous.distance)
        #expect(CartView(previous: previous, current: current, alpha: 1, rules: rules).distance == current.distance)
        #expect(CartView(previous: previous, current: current, alpha: 7, rules: rules).distance == current.distance)
    }

    @Test func aNewGameIsNotBlendedWithTheOldOne() {
        let (_, old) = playing(ticks: 200)
        var fresh = old
        fresh.step(CartCommand(togglePause: true), rules: rules)
        var restarted = CartState(seed: 9, rules: rules)
        restarted.step(CartCommand(start: true), rules: rules)
        let view = CartView(previous: old, current: restarted, alpha: 0.5, rules: rules)
        #expect(view.distance == restarted.distance)
    }

    @Test func screensForEveryPhase() {
        var state = CartState(seed: 1, rules: rules)
        #expect(CartHUD.screenText(state)?.title == "BADGER CART")
        state.step(CartCommand(start: true), rules: rules)
        #expect(CartHUD.screenText(state) == nil)
        state.deviceLost("the recording ended")
        #expect(CartHUD.screenText(state)?.title == "WAITING FOR MOTION")
        #expect(CartHUD.screenText(state)?.detail.contains("the recording ended") == true)
        state.deviceReturned()
        state.step(CartCommand(togglePause: true), rules: rules)
        #expect(CartHUD.screenText(state)?.title == "PAUSED")
    }

    @Test func boxMeshIsAClosedUnitCubeWithOutwardNormals() {
        let mesh = CartMeshes.box()
        #expect(mesh.indices.count == 36)
        for v in stride(from: 0, to: mesh.vertices.count, by: 6) {
            let p = Vec3f(mesh.vertices[v], mesh.vertices[v + 1], mesh.vertices[v + 2])
            let n = Vec3f(mesh.vertices[v + 3], mesh.vertices[v + 4], mesh.vertices[v + 5])
            #expect(max(abs(p.x), abs(p.y), abs(p.z)) == 0.5)
            #expect(abs(p.dot(n) - 0.5) < 1e-6)  // on the face the normal points out of
        }
        // Triangles wind counter-clockwise seen from outside (front faces for back-face culling).
        for t in stride(from: 0, to: mesh.indices.count, by: 3) {
            func point(_ i: UInt32) -> Vec3f {
                let v = Int(i) * 6
                return Vec3f(mesh.vertices[v], mesh.vertices[v + 1], mesh.vertices[v + 2])
            }
            let a = point(mesh.indices[t]), b = point(mesh.indices[t + 1]), c = point(mesh.indices[t + 2])
            let n = Vec3f(mesh.vertices[Int(mesh.indices[t]) * 6 + 3], mesh.vertices[Int(mesh.indices[t]) * 6 + 4],
                          mesh.vertices[Int(mesh.indices[t]) * 6 + 5])
            #expect((b - a).cross(c - a).dot(n) > 0)
        }
    }

    @Test func mergedBoxesKeepEachBoxInPlace() {
        let mesh = CartMeshes.boxes([(Vec3f(10, 0, 0), Vec3f(2, 2, 2)), (Vec3f(0, 5, 0), Vec3f(1, 1, 4))], label: "t")
        #expect(mesh.vertices.count == 2 * 24 * 6)
        #expect(mesh.indices.max() == 47)
        let xs = stride(from: 0, to: 24 * 6, by: 6).map { mesh.vertices[$0] }
        #expect(xs.min() == 9 && xs.max() == 11)
        let zs = stride(from: 24 * 6 + 2, to: mesh.vertices.count, by: 6).map { mesh.vertices[$0] }
        #expect(zs.min() == -2 && zs.max() == 2)
    }
}
