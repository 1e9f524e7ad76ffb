import CartGame
import Engine
import Foundation

/// The cart game's 3D draw: a mine track (ground, walls, sleepers, rails, timber frames), the
/// cart with its badger, gems, rocks and beams, seen by a third-person camera. World: z up,
/// the track runs along +y, x to the player's right. Draws a `BadgerView`; never changes it.
public final class BadgerRenderer {
    public let graphics: Graphics
    public let overlay: Overlay
    private let lit: ShaderID
    private let box: MeshID
    private let gem: MeshID
    private let sleepers: MeshID
    private let walls: MeshID
    private let frame: MeshID
    public var lightDirection = Vec3f(0.3, -0.45, 0.85).normalized

    /// Lateral position of each lane, metres.
    public static let laneSpacing: Float = 1.5

    public init(graphics: Graphics, shaders: ShaderLibrary) throws(EngineError) {
        self.graphics = graphics
        lit = try graphics.makeShader(shaders.load("lit"))
        overlay = try Overlay(graphics: graphics, shader: try graphics.makeShader(shaders.load("overlay")))
        box = try graphics.makeMesh(BadgerMeshes.box())
        gem = try graphics.makeMesh(BadgerMeshes.gem())
        sleepers = try graphics.makeMesh(BadgerMeshes.sleepers())
        walls = try graphics.makeMesh(BadgerMeshes.walls())
        frame = try graphics.makeMesh(BadgerMeshes.frame())
    }

    /// The camera behind and above the cart, looking down the track.
    public static func camera(for view: BadgerView) -> Camera {
        let y = Float(view.distance)
        var camera = Camera(fovY: 55 * .pi / 180, near: 0.1, far: 160)
        camera.view = Mat4.lookAt(eye: Vec3f(0, y - 7.5, 4.4), target: Vec3f(0, y + 8, 1.0), up: .unitZ)
        return camera
    }

    public func drawScene(_ view: BadgerView, rules: CartRules, size: PixelSize) {
        let camera = Self.camera(for: view)
        graphics.applyPipeline(Pipeline(shader: lit))
        graphics.setUniform("uViewProjection", camera.viewProjection(aspect: size.aspect))
        graphics.setUniform("uCameraPosition", camera.position)
        graphics.setUniform("uLightDirection", lightDirection)
        graphics.setUniform("uShininess", Float(24))
        drawMine(around: Float(view.distance), ahead: Float(rules.lookahead))
        drawItems(view)
        drawCart(view)
    }

    // MARK: - Pieces

    private func cube(at p: Vec3f, size s: Vec3f, color: Color, turn: Float = 0, parent: Mat4 = .identity) {
        var model = parent * Mat4.translation(p)
        if turn != 0 { model = model * Mat4.rotation(axis: .unitZ, angle: turn) }
        graphics.setUniform("uModel", model * Mat4.scale(s))
        graphics.setUniform("uBaseColor", color)
        graphics.draw(box)
    }

    private func drawMine(around y: Float, ahead: Float) {
        let near = y - 12, far = y + ahead
        let length = far - near, middle = (near + far) / 2
        cube(at: Vec3f(0, middle, -0.55), size: Vec3f(40, length, 1), color: Color(0.30, 0.22, 0.16))
        for side in [-1, 1] as [Float] {
            cube(at: Vec3f(side * 0.62, middle, 0.17), size: Vec3f(0.1, length, 0.14), color: Color(0.62, 0.64, 0.68))
        }
        // Sleepers, walls and a timber frame with its lamp, one 16 m section at a time.
        let section = BadgerMeshes.sectionLength
        var s = (near / section).rounded(.down) * section
        while s < far {
            let shade: Float = Int(s / section) % 2 == 0 ? 0.36 : 0.31
            draw(sleepers, at: Vec3f(0, s, 0), color: Color(0.42, 0.27, 0.15))
            draw(walls, at: Vec3f(0, s, 0), color: Color(shade, shade * 0.82, shade * 0.7))
            draw(frame, at: Vec3f(0, s + section / 2, 0), color: Color(0.48, 0.32, 0.18))
            cube(at: Vec3f(0, s + section / 2 - 0.3, 4.15), size: Vec3f(0.3, 0.3, 0.3), color: Color(1.0, 0.86, 0.45))
            s += section
        }
    }

    private func draw(_ mesh: MeshID, at p: Vec3f, color: Color) {
        graphics.setUniform("uModel", Mat4.translation(p))
        graphics.setUniform("uBaseColor", color)
        graphics.draw(mesh)
    }

    private func drawItems(_ view: BadgerView) {
        let y = view.distance
        for item in view.state.items where item.distance > y - 6 {
            let p = Float(item.distance)
            switch item.kind {
            case .obstacle:
                // A heap of rocks across the rails.
                let seed = Float(item.id % 7)
                cube(at: Vec3f(-0.35, p, 0.45), size: Vec3f(0.9, 0.8, 0.8), color: Color(0.45, 0.44, 0.46), turn: 0.4 + seed * 0.1)
                cube(at: Vec3f(0.4, p + 0.1, 0.4), size: Vec3f(0.8, 0.7, 0.7), color: Color(0.52, 0.5, 0.5), turn: -0.3)
                cube(at: Vec3f(0.05, p - 0.05, 0.95), size: Vec3f(0.6, 0.6, 0.5), color: Color(0.4, 0.39, 0.42), turn: 0.8)
            case .beam:
                // A low beam: duck! Striped like a warning.
                for side in [-1, 1] as [Float] {
                    cube(at: Vec3f(side * 2.2, p, 1.1), size: Vec3f(0.3, 0.3, 2.2), color: Color(0.48, 0.32, 0.18))
                }
                for i in 0..<8 {
                    let color = i % 2 == 0 ? Color(0.95, 0.7, 0.1) : Color(0.12, 0.12, 0.12)
                    cube(at: Vec3f(-2.1 + Float(i) * 0.6 + 0.3, p, 1.75), size: Vec3f(0.6, 0.35, 0.35), color: color)
                }
            case .gem(let lane):
                let x = Float(lane.rawValue) * Self.laneSpacing
                let spin = Float(item.distance * 0.7 + y * 0.35)
                let model = Mat4.translation(Vec3f(x, p, 1.5)) * Mat4.rotation(axis: .unitZ, angle: spin) * Mat4.scale(Vec3f(0.55, 0.55, 0.55))
                graphics.setUniform("uModel", model)
                graphics.setUniform("uBaseColor", Self.gemColor(lane))
                graphics.draw(gem)
            }
        }
    }

    /// Emerald left, sapphire centre, ruby right.
    public static func gemColor(_ lane: Lane) -> Color {
        switch lane {
        case .left: return Color(0.2, 0.9, 0.4)
        case .centre: return Color(0.3, 0.6, 1.0)
        case .right: return Color(1.0, 0.3, 0.35)
        }
    }

    private func drawCart(_ view: BadgerView) {
        // The cart leans at the command's angle about the track's direction, pivoting on the rails.
        // Tipping over the rail on the side it leans to, as a real cart would.
        let pivot = Vec3f(view.lean >= 0 ? 0.62 : -0.62, 0, 0)
        let cart = Mat4.translation(Vec3f(0, Float(view.distance), Float(view.jumpHeight)) + pivot)
            * Mat4.rotation(axis: .unitY, angle: view.lean) * Mat4.translation(-pivot)
        let crashed = view.state.isRecovering && Int(view.state.recoveryLeft * 10) % 2 == 0
        let body = crashed ? Color(0.9, 0.3, 0.2) : Color(0.55, 0.35, 0.2)
        cube(at: Vec3f(0, 0, 0.75), size: Vec3f(1.5, 1.8, 0.75), color: body, parent: cart)
        cube(at: Vec3f(0, 0, 1.14), size: Vec3f(1.6, 1.9, 0.08), color: Color(0.35, 0.36, 0.4), parent: cart)  // rim
        for (x, y) in [(-0.62, -0.6), (0.62, -0.6), (-0.62, 0.6), (0.62, 0.6)] as [(Float, Float)] {
            cube(at: Vec3f(x, y, 0.32), size: Vec3f(0.18, 0.5, 0.5), color: Color(0.2, 0.2, 0.22), parent: cart)
        }
        // The badger: grey body, white head with black stripes over the eyes, black nose and ears.
        let crouch = Float(view.crouch)
        let torsoHeight: Float = 0.9 * (1 - 0.45 * crouch)
        let torsoBase: Float = 1.1
        cube(at: Vec3f(0, -0.1, torsoBase + torsoHeight / 2), size: Vec3f(0.85, 0.75, torsoHeight),
             color: Color(0.5, 0.5, 0.52), parent: cart)
        let headZ = torsoBase + torsoHeight + 0.22 - 0.15 * crouch
        let head = cart * Mat4.translation(Vec3f(0, 0.25, headZ))
        cube(at: .zero, size: Vec3f(0.55, 0.62, 0.46), color: Color(0.95, 0.95, 0.93), parent: head)
        for side in [-1, 1] as [Float] {
            cube(at: Vec3f(side * 0.17, 0.02, 0.03), size: Vec3f(0.14, 0.66, 0.5), color: Color(0.08, 0.08, 0.09), parent: head)
            cube(at: Vec3f(side * 0.22, -0.22, 0.3), size: Vec3f(0.12, 0.08, 0.14), color: Color(0.08, 0.08, 0.09), parent: head)
        }
        cube(at: Vec3f(0, 0.36, -0.06), size: Vec3f(0.16, 0.1, 0.12), color: Color(0.05, 0.05, 0.05), parent: head)
        // Arms on the rim, reaching out when leaning toward a lane.
        for side in [-1, 1] as [Float] {
            let reach = max(0, side * view.lean) * 0.6
            cube(at: Vec3f(side * (0.5 + reach), 0.2, torsoBase + 0.1), size: Vec3f(0.4 + reach * 2, 0.16, 0.16),
                 color: Color(0.3, 0.3, 0.32), parent: cart)
        }
    }
}
