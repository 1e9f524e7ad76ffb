import Engine
import Foundation
import Motion
import Testing
@testable import Demo

/// Renders the real teapot scene headless (SDL offscreen driver or Xvfb, Mesa) and checks what
/// lands in the pixels. One context per test, created and used on the test's own thread.
@Suite(.serialized) struct TeapotRenderTests {
    static let size = PixelSize(width: 160, height: 120)

    /// Teapot pixels: its copper colour (r ≥ g > b) even in shadow; the grid is grey (r ≈ g ≈ b),
    /// the red axis has g = b, the green and blue axes have r < g.
    static func isTeapot(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Bool {
        Int(r) >= Int(g) && Int(g) >= Int(b) + 8 && Int(r) >= Int(b) + 20
    }

    /// Renders each (attitude, pivot) with the scene's own renderer, no HUD.
    static func render(_ cases: [(Attitude, TeapotPivot)]) throws -> [Image] {
        try withHeadlessGraphics(size: size) { graphics, shaders, target in
            let renderer = try TeapotRenderer(graphics: graphics, shaders: shaders)
            return cases.map { attitude, pivot in
                var state = TeapotState(pivot: pivot)
                state.update(received: Received(value: DeviceMotion(timestamp: 1, attitude: attitude, rotationRate: .zero,
                                                                    gravity: attitude.gravity, userAcceleration: .zero),
                                                arrivalTime: 1),
                             now: 1, dt: 0)
                graphics.beginPass(size: size, target: target, action: PassAction(clearColor: Color(0.08, 0.09, 0.12)))
                renderer.drawScene(state, size: size)
                let image = graphics.readPixels()
                graphics.endPass()
                return image
            }
        }
    }

    @Test func teapotCoversASensiblePartOfTheFrame() throws {
        let image = try Self.render([(.identity, .object)])[0]
        let teapot = Silhouette(image, where: Self.isTeapot)
        #expect(teapot.fraction > 0.08 && teapot.fraction < 0.45, "teapot covers \(teapot.fraction) of the frame")
        // The object-centred camera looks at the teapot: its centroid is near the middle.
        #expect(abs(teapot.centroid.x - 80) < 16 && abs(teapot.centroid.y - 60) < 16)
        // Wider than tall from 30° above (spout to handle about 6 units, 3.15 high).
        #expect(abs(teapot.principalAngle) < 0.3)
    }

    @Test func turningTheDeviceAboutTheLineOfSightTurnsThePicture() throws {
        // The eye's +z (toward the viewer) in device coordinates, tilted by the rig's screen tilt.
        let tilt = Double(TeapotCameraRig().screenTilt)
        let lineOfSight = Vector3(0, -sin(tilt), cos(tilt))
        let angle = 30 * Double.pi / 180
        let turned = Attitude(quaternion: Quaternion(axis: lineOfSight, angle: angle))
        let images = try Self.render([(.identity, .object), (turned, .object)])
        let before = Silhouette(images[0], where: Self.isTeapot)
        let after = Silhouette(images[1], where: Self.isTeapot)

        // Turning the device counter-clockwise turns the world clockwise on screen (y down: +angle).
        let turn = axisDifference(after.principalAngle, before.principalAngle)
        #expect(abs(turn - angle) < 4 * .pi / 180, "silhouette axis turned \(turn * 180 / .pi) degrees")
        // ... about the centre of the image, carrying the centroid with it.
        let c = (x: 80.0, y: 60.0)
        let (dx, dy) = (before.centroid.x - c.x, before.centroid.y - c.y)
        let expected = (x: c.x + dx * cos(angle) - dy * sin(angle), y: c.y + dx * sin(angle) + dy * cos(angle))
        #expect(abs(after.centroid.x - expected.x) < 2 && abs(after.centroid.y - expected.y) < 2)
        // The picture turns, the teapot does not shrink.
        #expect(abs(Double(after.count - before.count)) < 0.05 * Double(before.count))
    }

    @Test func yawingTheCameraCentredViewSweepsTheTeapotAcross() throws {
        let yaw = 20 * Double.pi / 180
        let images = try Self.render([(.identity, .camera), (Attitude(roll: 0, pitch: 0, yaw: yaw), .camera)])
        let before = Silhouette(images[0], where: Self.isTeapot)
        let after = Silhouette(images[1], where: Self.isTeapot)
        // The camera turns left (counter-clockwise seen from above), so the teapot moves right:
        // about 17° of a 64° wide view at 30° elevation, roughly a quarter of the width.
        let shift = (after.centroid.x - before.centroid.x) / Double(Self.size.width)
        #expect(shift > 0.12 && shift < 0.4, "centroid moved \(shift) of the width")
    }

    @Test func thePivotsAgreeAtRestAndDifferWhenTurned() throws {
        let turned = Attitude(roll: 0.4, pitch: 0.2, yaw: 0.5)
        let images = try Self.render([(.identity, .camera), (.identity, .object), (turned, .camera), (turned, .object)])
        let silhouettes = images.map { Silhouette($0, where: Self.isTeapot) }
        // Both start from the same view...
        #expect(images[0] == images[1])
        // ... and part as soon as the device turns: the object-centred camera keeps the teapot in
        // the middle, the camera-centred one looks away from it.
        #expect(images[2] != images[3])
        #expect(silhouettes[2].overlap(with: silhouettes[3]) < 0.6)
        let offCentre = { (s: Silhouette) in hypot(s.centroid.x - 80, s.centroid.y - 60) }
        #expect(offCentre(silhouettes[3]) < 16)
        #expect(offCentre(silhouettes[2]) > offCentre(silhouettes[3]) + 10)
    }

    @Test func multisamplingSmoothsTheEdgesWithoutMovingThem() throws {
        let (plain, smooth) = try withHeadlessGraphics(size: Self.size) { graphics, shaders, target in
            let renderer = try TeapotRenderer(graphics: graphics, shaders: shaders)
            let multisampled = try graphics.makeRenderTarget(RenderTargetDesc(size: Self.size, sampleCount: 4))
            return [target, multisampled].map { t -> Image in
                graphics.beginPass(size: Self.size, target: t, action: PassAction(clearColor: Color(0.08, 0.09, 0.12)))
                renderer.drawScene(TeapotState(), size: Self.size)
                let image = graphics.readPixels()
                graphics.endPass()
                return image
            }
        }.splat
        // Edge pixels blend teapot and background: many more distinct colours, same silhouette.
        func colours(_ image: Image) -> Int {
            var seen = Set<UInt32>()
            for i in stride(from: 0, to: image.pixels.count, by: 4) {
                let r = UInt32(image.pixels[i]), g = UInt32(image.pixels[i + 1]), b = UInt32(image.pixels[i + 2])
                seen.insert(r << 16 | g << 8 | b)
            }
            return seen.count
        }
        #expect(colours(smooth) * 5 > colours(plain) * 6, "\(colours(smooth)) vs \(colours(plain)) colours")
        let a = Silhouette(plain, where: Self.isTeapot), b = Silhouette(smooth, where: Self.isTeapot)
        #expect(a.overlap(with: b) > 0.9)
    }

    @Test func aMissingShaderFileIsNamed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiltkit-shaders-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let real = ShaderLibrary.locate().directory
        for file in ["lit.vert", "lit.frag", "color.vert"] {   // color.frag left out
            try FileManager.default.copyItem(at: real.appendingPathComponent(file), to: folder.appendingPathComponent(file))
        }
        let error = try withHeadlessGraphics(size: Self.size) { graphics, _, _ -> EngineError? in
            do {
                _ = try TeapotRenderer(graphics: graphics, shaders: ShaderLibrary(directory: folder))
                return nil
            } catch {
                return error as? EngineError
            }
        }
        #expect(error == .shaderFileMissing(path: folder.appendingPathComponent("color.frag").path))
        #expect(error?.description.contains("color.frag") == true)
    }

    @Test func aBrokenShaderReportsTheFileAndTheCompilerLog() throws {
        let error = try withHeadlessGraphics(size: Self.size) { graphics, _, _ -> EngineError? in
            let desc = ShaderDesc(name: "broken", vertexSource: "#version 330 core\nvoid main() { gl_Position = vec4(0.0); }\n",
                                  fragmentSource: "#version 330 core\nout vec4 c;\nvoid main() { c = undefinedThing; }\n",
                                  fragmentOrigin: "Shaders/broken.frag")
            do {
                _ = try graphics.makeShader(desc)
                return nil
            } catch {
                return error as? EngineError
            }
        }
        guard case .shaderCompileFailed(let file, let log) = error else {
            Issue.record("expected a compile error, got \(String(describing: error))")
            return
        }
        #expect(file == "Shaders/broken.frag")
        #expect(log.contains("undefinedThing"))
    }
}

private extension Array {
    /// The first two elements as a pair.
    var splat: (Element, Element) { (self[0], self[1]) }
}
