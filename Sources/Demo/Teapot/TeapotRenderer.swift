import Engine

/// The teapot scene's GL resources and its 3D draw: the lit teapot, the ground grid and the RGB
/// axes (x red, y green, z blue) at the world origin under the teapot's centre.
public final class TeapotRenderer {
    public let graphics: Graphics
    private let lit: ShaderID
    private let colored: ShaderID
    private let teapot: MeshID
    private let grid: MeshID
    private let axes: MeshID
    /// Draws the HUD; shared with the scene.
    public let overlay: Overlay

    /// Teapot colour and the light, toward the light in world coordinates.
    public var teapotColor = Color(0.86, 0.58, 0.30)
    public var lightDirection = Vec3f(0.35, -0.55, 0.75).normalized

    /// Loads `lit`, `color` and `overlay` from `shaders` and builds the meshes.
    public init(graphics: Graphics, shaders: ShaderLibrary, rig: TeapotCameraRig = TeapotCameraRig()) throws(EngineError) {
        self.graphics = graphics
        lit = try graphics.makeShader(shaders.load("lit"))
        colored = try graphics.makeShader(shaders.load("color"))
        overlay = try Overlay(graphics: graphics, shader: try graphics.makeShader(shaders.load("overlay")))
        teapot = try graphics.makeMesh(TeapotMesh.desc(segments: 10))
        let ground = rig.groundHeight
        grid = try graphics.makeMesh(MeshDesc(
            vertices: LineGeometry.grid(halfExtent: 12, spacing: 1, height: ground, color: Color(0.32, 0.34, 0.40),
                                        majorColor: Color(0.5, 0.53, 0.6)),
            layout: [.float3, .float4], primitive: .lines, label: "grid"))
        // Axes start a hair above the grid so they win the depth test against its lines.
        axes = try graphics.makeMesh(MeshDesc(
            vertices: LineGeometry.axes(length: 5, origin: Vec3f(0, 0, ground + 0.01)),
            layout: [.float3, .float4], primitive: .lines, label: "axes"))
    }

    /// Draws the grid, axes and teapot for `state` into the pass in progress (`size` pixels).
    public func drawScene(_ state: TeapotState, size: PixelSize) {
        guard state.compare else { return drawScene(view: state.viewMatrix, model: state.modelMatrix, size: size) }
        // Fusion on the left half, accelerometer-only on the right, each in its own viewport.
        let half = PixelSize(width: size.width / 2, height: size.height)
        graphics.applyViewport(x: 0, y: 0, width: half.width, height: half.height)
        drawScene(view: state.comparisonViewMatrix(fusion: true), model: state.comparisonModelMatrix(fusion: true), size: half)
        graphics.applyViewport(x: size.width - half.width, y: 0, width: half.width, height: half.height)
        drawScene(view: state.comparisonViewMatrix(fusion: false), model: state.comparisonModelMatrix(fusion: false), size: half)
        graphics.applyViewport(x: 0, y: 0, width: size.width, height: size.height)
    }

    /// Draws the grid, axes and the teapot (placed by `model`) seen through `view`, for a viewport of `size`.
    public func drawScene(view: Mat4, model: Mat4, size: PixelSize) {
        var camera = Camera()
        camera.view = view
        let viewProjection = camera.viewProjection(aspect: size.aspect)

        graphics.applyPipeline(Pipeline(shader: colored))
        graphics.setUniform("uModelViewProjection", viewProjection)
        graphics.draw(grid)
        graphics.draw(axes)

        graphics.applyPipeline(Pipeline(shader: lit))
        graphics.setUniform("uModel", model)
        graphics.setUniform("uViewProjection", viewProjection)
        graphics.setUniform("uCameraPosition", camera.position)
        graphics.setUniform("uLightDirection", lightDirection)
        graphics.setUniform("uBaseColor", teapotColor)
        graphics.setUniform("uShininess", Float(48))
        graphics.draw(teapot)
    }
}
