import CartGame
import Engine
import Foundation
import Motion
import Testing
import TestSupport
@testable import Demo

/// The cart game drawn offscreen with real GL (SDL's offscreen driver when there is no display).
@Suite(.serialized) struct BadgerRenderTests {
    /// Draws `view` with the HUD into a 320×180 target and reads it back.
    func render(_ view: BadgerView, graphics: Graphics, renderer: BadgerRenderer) throws -> Image {
        let size = PixelSize(width: 320, height: 180)
        let target = try graphics.makeRenderTarget(RenderTargetDesc(size: size))
        graphics.beginPass(size: size, target: target, action: PassAction(clearColor: Color(0.06, 0.05, 0.06)))
        renderer.drawScene(view, rules: .standard, size: size)
        let facts = BadgerHUD.Facts(sinceJump: 0.1, sinceDuck: nil, jumpLevel: 2, duckLevel: 0, settings: .standard,
                                    pose: .gamepad, sourceName: "test")
        BadgerHUD.draw(view, facts: facts, overlay: renderer.overlay, size: size)
        renderer.overlay.draw(size: size)
        let image = graphics.readPixels()
        graphics.endPass()
        return image
    }

    @Test func cartLeansToTheSideOfTheCommand() throws {
        let window = try Window(WindowDesc(size: PixelSize(width: 320, height: 180), headless: true))
        defer { window.close() }
        let graphics = try Graphics()
        defer { graphics.shutdown() }
        let renderer = try BadgerRenderer(graphics: graphics, shaders: ShaderLibrary(directory: TestData.repositoryRoot.appendingPathComponent("Shaders")))
        let rules = CartRules.standard
        func view(lean: Float) -> BadgerView {
            var state = CartState(seed: 2, rules: rules)
            state.step(CartCommand(start: true), rules: rules)
            for _ in 0..<10 { state.step(CartCommand(lean: lean), rules: rules) }
            return BadgerView(previous: state, current: state, alpha: 0, rules: rules)
        }
        let upright = try render(view(lean: 0), graphics: graphics, renderer: renderer)
        let right = try render(view(lean: 0.9), graphics: graphics, renderer: renderer)
        let left = try render(view(lean: -0.9), graphics: graphics, renderer: renderer)

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
}
