import Engine
import Foundation
import Motion
import Testing
@testable import Demo

/// The range drawn offscreen with real GL: the target the view is turned to sits under the
/// crosshair, and turning the view (yaw left positive) moves it the right way on screen.
@Suite(.serialized) struct AimRenderTests {
    static let size = PixelSize(width: 320, height: 180)

    func render(_ range: AimRange, graphics: Graphics, renderer: AimRenderer, target: RenderTargetID) -> Image {
        graphics.beginPass(size: Self.size, target: target, action: PassAction(clearColor: AimRenderer.background))
        renderer.drawScene(range, size: Self.size)
        let image = graphics.readPixels()
        graphics.endPass()
        return image
    }

    /// Centroid x of the targets' red faces, pixels (nil: none visible).
    func redCentroidX(_ image: Image) -> Double? {
        let red = Silhouette(image) { r, g, b in Int(r) > Int(g) + 60 && Int(r) > Int(b) + 60 }
        return red.count > 20 ? red.centroid.x : nil
    }

    /// Centroid x of a yellow face: the target under the crosshair.
    func yellowCentroidX(_ image: Image) -> Double? {
        let yellow = Silhouette(image) { r, g, b in Int(r) > Int(b) + 80 && Int(g) > Int(b) + 60 && abs(Int(r) - Int(g)) < 60 }
        return yellow.count > 20 ? yellow.centroid.x : nil
    }

    @Test func targetSitsWhereTheViewTurns() throws {
        var onTarget = AimRange(targets: [AimRange.Target(yaw: 30, pitch: 0)])
        onTarget.yaw = 30
        var leftOfIt = onTarget
        leftOfIt.yaw = 40          // turned 10° further left: the target moves right on screen
        var away = onTarget
        away.yaw = 210
        let images = try withHeadlessGraphics(size: Self.size) { graphics, shaders, target in
            let renderer = try AimRenderer(graphics: graphics, shaders: shaders)
            return [onTarget, leftOfIt, away].map { render($0, graphics: graphics, renderer: renderer, target: target) }
        }
        // Straight at it: centred, and yellow because it is under the crosshair; 10° left of it: red, to the right.
        let (centre, shifted, behind) = (yellowCentroidX(images[0]), redCentroidX(images[1]), redCentroidX(images[2]))
        #expect(redCentroidX(images[0]) == nil)
        #expect(abs((centre ?? 0) - 160) < 6, "red centroid \(String(describing: centre))")
        #expect((shifted ?? 0) > (centre ?? 0) + 15, "\(String(describing: shifted)) vs \(String(describing: centre))")
        #expect(behind == nil)
    }
}
