import Engine
import Foundation
import Motion

/// The range's 3D draw: a ground grid, the targets on their posts (dropped flat and dark while
/// down), seen from the player's eye at the range's yaw and pitch. World: z up, yaw 0 along +y.
/// Draws an `AimRange`; never changes it.
public final class AimRenderer {
    public let graphics: Graphics
    public let overlay: Overlay
    private let lit: ShaderID
    private let colored: ShaderID
    private let grid: MeshID
    private let box: MeshID
    public static let background = Color(0.55, 0.68, 0.82)
    /// Eye height above the ground, metres.
    public static let eyeHeight: Float = 1.6

    public init(graphics: Graphics, shaders: ShaderLibrary) throws(EngineError) {
        self.graphics = graphics
        lit = try graphics.makeShader(shaders.load("lit"))
        colored = try graphics.makeShader(shaders.load("color"))
        overlay = try Overlay(graphics: graphics, shader: try graphics.makeShader(shaders.load("overlay")))
        grid = try graphics.makeMesh(MeshDesc(
            vertices: LineGeometry.grid(halfExtent: 30, spacing: 2, height: 0, color: Color(0.35, 0.45, 0.3),
                                        majorColor: Color(0.45, 0.55, 0.38)),
            layout: [.float3, .float4], primitive: .lines, label: "range grid"))
        box = try graphics.makeMesh(CartMeshes.box())
    }

    /// The player's camera: at eye height, looking along the range's aim.
    public static func camera(for range: AimRange) -> Camera {
        let eye = Vec3f(0, 0, eyeHeight)
        let d = Vec3f(AimRange.direction(yaw: range.yaw, pitch: range.pitch))
        var camera = Camera(fovY: 60 * .pi / 180, near: 0.1, far: 120)
        camera.view = Mat4.lookAt(eye: eye, target: eye + d, up: .unitZ)
        return camera
    }

    public func drawScene(_ range: AimRange, size: PixelSize) {
        let camera = Self.camera(for: range)
        let viewProjection = camera.viewProjection(aspect: size.aspect)
        graphics.applyPipeline(Pipeline(shader: colored))
        graphics.setUniform("uModelViewProjection", viewProjection)
        graphics.draw(grid)

        graphics.applyPipeline(Pipeline(shader: lit))
        graphics.setUniform("uViewProjection", viewProjection)
        graphics.setUniform("uCameraPosition", camera.position)
        // Light from behind and above the player, turning with the view: the faces the player
        // aims at are always lit, whichever way the pad has turned.
        let view = Vec3f(AimRange.direction(yaw: range.yaw, pitch: 0))
        graphics.setUniform("uLightDirection", (Vec3f(0.35, 0, 0.8) - view * 0.6).normalized)
        graphics.setUniform("uShininess", Float(24))
        // Ground: one flat box under the grid.
        drawBox(center: Vec3f(0, 0, -0.06), size: Vec3f(60, 60, 0.1), yaw: 0, color: Color(0.30, 0.42, 0.26))
        let under = range.targetUnderCrosshair
        for (i, target) in range.targets.enumerated() {
            let centre = Vec3f(0, 0, Self.eyeHeight)
                + Vec3f(AimRange.direction(yaw: target.yaw, pitch: target.pitch)) * Float(target.distance)
            let r = Float(target.radius)
            let yaw = Float(target.yaw * .pi / 180)
            drawBox(center: Vec3f(centre.x, centre.y, (centre.z - r) / 2), size: Vec3f(0.12, 0.12, max(0.01, centre.z - r)),
                    yaw: yaw, color: Color(0.45, 0.33, 0.22))
            if target.isUp {
                let color = i == under ? Color(1, 0.85, 0.2) : Color(0.85, 0.25, 0.18)
                drawBox(center: centre, size: Vec3f(2 * r, 0.12, 2 * r), yaw: yaw, color: color)
                drawBox(center: centre - Vec3f(AimRange.direction(yaw: target.yaw, pitch: 0)) * 0.07,
                        size: Vec3f(r, 0.04, r), yaw: yaw, color: Color(0.95, 0.95, 0.9))
            } else {
                // Knocked down: lying flat at the foot of its post.
                drawBox(center: Vec3f(centre.x, centre.y, 0.08), size: Vec3f(2 * r, 2 * r, 0.12), yaw: yaw,
                        color: Color(0.35, 0.2, 0.18))
            }
        }
    }

    private func drawBox(center: Vec3f, size: Vec3f, yaw: Float, color: Color) {
        graphics.setUniform("uModel", Mat4.translation(center) * Mat4.rotation(axis: .unitZ, angle: yaw) * Mat4.scale(size))
        graphics.setUniform("uBaseColor", color)
        graphics.draw(box)
    }
}
