import CartGame
import Engine
import Testing
@testable import Demo

/// The mine fades into the fog far down the track and nowhere near the cart (real GL, offscreen).
@Suite(.serialized) struct CartFogRenderTests {
    static let size = PixelSize(width: 320, height: 180)

    @Test func onlyTheFarTunnelTakesTheFogColour() throws {
        let rules = CartRules.standard
        var state = CartState(seed: 2, rules: rules)
        state.step(CartCommand(start: true), rules: rules)
        for _ in 0..<30 { state.step(.idle, rules: rules) }
        let view = CartView(previous: state, current: state, alpha: 0, rules: rules)

        // The same frame with two very different fogs: where they differ, the fog shows.
        let images = try withHeadlessGraphics(size: Self.size) { graphics, shaders, target in
            let renderer = try CartRenderer(graphics: graphics, shaders: shaders)
            return [Color(1, 0, 1), Color(0, 1, 0)].map { fog -> Image in
                renderer.fogColor = fog
                graphics.beginPass(size: Self.size, target: target, action: PassAction(clearColor: Color(0.06, 0.05, 0.06)))
                renderer.drawScene(view, rules: rules, size: Self.size)
                let image = graphics.readPixels()
                graphics.endPass()
                return image
            }
        }
        var fogged: [(x: Int, y: Int)] = []
        for y in 0..<Self.size.height {
            for x in 0..<Self.size.width {
                let a = images[0].pixel(x: x, y: y), b = images[1].pixel(x: x, y: y)
                if abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b)) > 30 {
                    fogged.append((x, y))
                }
            }
        }
        // The far tunnel around the vanishing point, above the middle of the frame...
        #expect(fogged.count > 100)
        let centreX = Double(fogged.map(\.x).reduce(0, +)) / Double(max(1, fogged.count))
        #expect(abs(centreX - 160) < 20)
        // ...and nothing in the lower half: the cart, the rails and the floor near it.
        #expect(fogged.allSatisfy { $0.y < Self.size.height / 2 })
    }
}
