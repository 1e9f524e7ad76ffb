import CartGame
import Engine
import Foundation
import Motion
import Testing
import TestSupport
@testable import Demo

/// The cart game drawn offscreen with real GL (SDL's offscreen driver when there is no display).
@Suite(.serialized) struct CartRenderTests {
    static let size = PixelSize(width: 320, height: 180)

    /// Draws `view` with the HUD into the target and reads it back.
    func render(_ view: CartView, graphics: Graphics, renderer: CartRenderer, target: RenderTargetID) -> Image {
        let size = Self.size
        graphics.beginPass(size: size, target: target, action: PassAction(clearColor: Color(0.06, 0.05, 0.06)))
        renderer.drawScene(view, rules: .standard, size: size)
        let facts = CartHUD.Facts(sinceJump: 0.1, sinceDuck: nil, jumpLevel: 2, duckLevel: 0, settings: .standard,
                                    pose: .gamepad, sourceName: "test")
        CartHUD.draw(view, facts: facts, overlay: renderer.overlay, size: size)
        renderer.overlay.draw(size: size)
        let image = graphics.readPixels()
        graphics.endPass()
        return image
    }

    @Test func cartLeansToTheSideOfTheCommand() throws {
        let rules = CartRules.standard
        func view(lean: Float) -> CartView {
            var state = CartState(seed: 2, rules: rules)
            state.step(CartCommand(start: true), rules: rules)
            for _ in 0..<10 { state.step(CartCommand(lean: lean), rules: rules) }
            return CartView(previous: state, current: state, alpha: 0, rules: rules)
        }
        let images = try withHeadlessGraphics(size: Self.size) { graphics, shaders, target in
            let renderer = try CartRenderer(graphics: graphics, shaders: shaders)
            return [0, 0.9, -0.9].map { render(view(lean: $0), graphics: graphics, renderer: renderer, target: target) }
        }
        let (upright, right, left) = (images[0], images[1], images[2])

        // Where the images differ from upright, in the lower middle band (the cart), left vs right of centre.
        func changed(_ image: Image, xs: Range<Int>) -> Int {
            var count = 0
            for y in 80..<150 {
                for x in xs {
                    let a = image.pixel(x: x, y: y), b = upright.pixel(x: x, y: y)
                    if abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b)) > 30 { count += 1 }
                }
            }
            return count
        }
        // The leaning cart sticks out on its side of the screen.
        #expect(changed(right, xs: 190..<260) > changed(right, xs: 60..<130) + 100)
        #expect(changed(left, xs: 60..<130) > changed(left, xs: 190..<260) + 100)
        // The HUD's score panel darkens the top-left corner, and the scene is not one flat colour.
        let colours = Set(stride(from: 0, to: upright.pixels.count, by: 4 * 97).map { upright.pixels[$0] })
        #expect(colours.count > 20)
    }

    @Test func theSceneRunsOnAReplayAndPausesWhenItEnds() throws {
        // Two seconds of x-io's still start, stepped by the frame loop: the game starts, rides,
        // and when the recording ends it waits for motion instead of carrying on blind.
        var trace = try Trace.load(contentsOf: TestData.assets.appendingPathComponent("traces/xio/sensor_data.csv"))
        trace.samples = Array(trace.samples.prefix(200))
        let player = CartPlayer(motion: SceneMotionInput(steppedReplay: SteppedReplaySource(trace: trace, loop: false)),
                                settings: .standard, pose: nil, session: CartSession(seed: 5, autostart: true))
        try player.start()
        defer { player.stop() }
        let app = try DemoApp(DemoRunOptions(size: PixelSize(width: 160, height: 90), headless: true, frames: 150),
                              shaders: ShaderLibrary(directory: TestData.repositoryRoot.appendingPathComponent("Shaders")))
        defer { app.close() }
        let scene = CartScene(renderer: try CartRenderer(graphics: app.graphics, shaders: app.shaders),
                              player: player, gamepad: nil)
        #expect(try app.run(scene) == 150)
        #expect(scene.state.distance > 8)   // rode for the 2 s the recording lasted
        #expect(scene.state.phase == .paused(reason: .deviceLost("the recording ended")))
        #expect(player.pose == .gamepad)    // lying flat
    }
}
