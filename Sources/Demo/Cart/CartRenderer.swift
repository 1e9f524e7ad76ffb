import CartGame
import Engine
import Foundation

/// The cart game's 3D draw: a mine track (floor, walls, sleepers, rails, timber frames), the
/// cart with its badger, gems, rocks and beams, seen by a third-person camera. World: z up,
/// the track runs along +y, x to the player's right. Draws a `CartView`; never changes it.
///
/// Two draw calls, both lit and fogged per vertex (`cart.vert`): the cart and the items,
/// merged anew each frame in front-to-back order, then the mine, one mesh built at start. On a
/// software renderer (Mesa's llvmpipe) the frame is bound by pixels shaded, so near things go
/// first and the depth test spares the pixels they hide.
public final class CartRenderer {
    public let graphics: Graphics
    public let overlay: Overlay
    private let shader: ShaderID
    private let mine: MeshID
    /// The cart and items of the frame being drawn.
    private let moving: MeshID
    private var batch = CartBatch()
    public var lightDirection = Vec3f(0.3, -0.45, 0.85).normalized
    /// The game's background: the window is cleared to it and far things fade into it.
    public static let background = Color(0.06, 0.05, 0.06)
    /// What far things fade into.
    public var fogColor = CartRenderer.background

    /// Distances from the camera, metres, where the fog begins and where nothing else is left;
    /// beyond the end nothing is drawn.
    public static let fogStart: Float = 30
    public static let fogEnd: Float = 120
    /// Lateral position of each lane, metres.
    public static let laneSpacing: Float = 1.5
    /// How far behind the cart the camera sits, metres.
    static let cameraBehind: Float = 7.5
    /// How far behind the cart the mine must reach, metres: just past the camera.
    static let mineBehind: Float = 12

    public init(graphics: Graphics, shaders: ShaderLibrary) throws(EngineError) {
        self.graphics = graphics
        shader = try graphics.makeShader(shaders.load("cart"))
        overlay = try Overlay(graphics: graphics, shader: try graphics.makeShader(shaders.load("overlay")))
        let sections = CartMine.sectionCount(behind: Self.mineBehind, ahead: Self.fogEnd - Self.cameraBehind)
        mine = try graphics.makeMesh(CartMine.mesh(sections: sections))
        moving = try graphics.makeMesh(MeshDesc(vertices: [], layout: CartBatch.layout, usage: .dynamic, label: "moving"))
    }

    /// The camera behind and above the cart, looking down the track.
    public static func camera(for view: CartView) -> Camera {
        let y = Float(view.distance)
        var camera = Camera(fovY: 55 * .pi / 180, near: 0.1, far: 160)
        camera.view = Mat4.lookAt(eye: Vec3f(0, y - cameraBehind, 4.4), target: Vec3f(0, y + 8, 1.0), up: .unitZ)
        return camera
    }

    public func drawScene(_ view: CartView, rules: CartRules, size: PixelSize) {
        let camera = Self.camera(for: view)
        // Every shape is a closed, outward-wound solid (the floor is seen from above only).
        graphics.applyPipeline(Pipeline(shader: shader, cullBackFaces: true))
        graphics.setUniform("uViewProjection", camera.viewProjection(aspect: size.aspect))
        graphics.setUniform("uCameraPosition", camera.position)
        graphics.setUniform("uLightDirection", lightDirection)
        graphics.setUniform("uShininess", Float(24))
        graphics.setUniform("uFogColor", Vec3f(fogColor.r, fogColor.g, fogColor.b))
        graphics.setUniform("uFogStart", Self.fogStart)
        graphics.setUniform("uFogEnd", Self.fogEnd)

        batch.removeAll()
        addCart(view)
        addItems(view, rules: rules)
        if !batch.isEmpty {
            graphics.updateMesh(moving, vertices: batch.vertices, indices: batch.indices)
            graphics.setUniform("uModel", Mat4.identity)
            graphics.draw(moving)
        }
        let origin = CartMine.origin(coveringFrom: Float(view.distance) - Self.mineBehind)
        graphics.setUniform("uModel", Mat4.translation(Vec3f(0, origin, 0)))
        graphics.draw(mine)
    }

    // MARK: - Pieces

    private func cube(at p: Vec3f, size s: Vec3f, color: Color, turn: Float = 0, parent: Mat4 = .identity) {
        var model = parent * Mat4.translation(p)
        if turn != 0 { model = model * Mat4.rotation(axis: .unitZ, angle: turn) }
        batch.append(CartMeshes.unitBox, transform: model * Mat4.scale(s), color: color)
    }

    /// Items from just behind the cart to the rules' lookahead or the end of the fog, whichever
    /// is nearer, near to far (the rules keep them in track order).
    private func addItems(_ view: CartView, rules: CartRules) {
        let y = view.distance
        let farthest = y + min(rules.lookahead, Double(Self.fogEnd - Self.cameraBehind))
        for item in view.state.items where item.distance > y - 6 && item.distance < farthest {
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
                batch.append(CartMeshes.unitGem, transform: model, color: Self.gemColor(lane))
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

    private func addCart(_ view: CartView) {
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
