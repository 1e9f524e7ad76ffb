import CGL

/// What happens to the target when a pass begins; nil leaves it as it was.
public struct PassAction: Sendable {
    public var clearColor: Color?
    public var clearDepth: Bool

    public init(clearColor: Color? = Color(0, 0, 0), clearDepth: Bool = true) {
        self.clearColor = clearColor
        self.clearDepth = clearDepth
    }

    /// Keep the colour and depth already there (e.g. a HUD pass over the 3D pass).
    public static let load = PassAction(clearColor: nil, clearDepth: false)
}

/// How blending combines a fragment with the target.
public enum BlendMode: Sendable {
    case opaque
    /// Premultiplied by the fragment's own alpha: `src·a + dst·(1 − a)`.
    case alpha
}

/// Render state for the draws that follow: a value, not a GL object; only `shader` is required.
///
///     Pipeline(shader: lit)                                          // depth-tested, opaque
///     Pipeline(shader: overlay, depthTest: false, blend: .alpha)     // HUD
public struct Pipeline: Sendable {
    public var shader: ShaderID
    public var depthTest: Bool
    public var depthWrite: Bool
    public var blend: BlendMode
    /// Skip triangles facing away (counter-clockwise is front). Off by default: open surfaces
    /// such as the teapot's spout show both sides.
    public var cullBackFaces: Bool

    public init(shader: ShaderID, depthTest: Bool = true, depthWrite: Bool = true, blend: BlendMode = .opaque,
                cullBackFaces: Bool = false) {
        self.shader = shader
        self.depthTest = depthTest
        self.depthWrite = depthWrite
        self.blend = blend
        self.cullBackFaces = cullBackFaces
    }
}

extension Graphics {
    /// Starts drawing into the window's framebuffer (`target` nil) or an offscreen target, over
    /// the whole of `size` pixels.
    public func beginPass(size: PixelSize, target: RenderTargetID? = nil, action: PassAction = PassAction()) {
        var framebuffer: GLuint = 0, resolve: GLuint = 0
        var size = size
        if let target {
            guard let t = targets.get(target.raw) else { return warnStale("render target") }
            framebuffer = t.framebuffer
            resolve = t.resolveFramebuffer
            size = t.size
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glViewport(0, 0, GLsizei(size.width), GLsizei(size.height))
        currentPass = (size, framebuffer, resolve)
        var mask: GLbitfield = 0
        if let c = action.clearColor {
            glClearColor(c.r, c.g, c.b, c.a)
            mask |= GLbitfield(GL_COLOR_BUFFER_BIT)
        }
        if action.clearDepth {
            glDepthMask(GLboolean(GL_TRUE))
            mask |= GLbitfield(GL_DEPTH_BUFFER_BIT)
        }
        if mask != 0 { glClear(mask) }
    }

    /// Draws that follow go to this rectangle of the pass (pixels, origin bottom left, as GL;
    /// sokol's `sg_apply_viewport`); `beginPass` resets it to the whole pass.
    public func applyViewport(x: Int, y: Int, width: Int, height: Int) {
        glViewport(GLint(x), GLint(y), GLsizei(max(width, 0)), GLsizei(max(height, 0)))
    }

    /// The pixel size of the pass in progress (zero outside a pass).
    public var passSize: PixelSize { currentPass?.size ?? PixelSize(width: 0, height: 0) }

    /// Finishes the pass. Reading pixels (`readPixels`) must happen before the next `beginPass`.
    public func endPass() {
        glBindVertexArray(0)
        glUseProgram(0)
        currentShader = nil
    }

    /// Sets the render state and program for the following draws.
    public func applyPipeline(_ pipeline: Pipeline) {
        guard let shader = shaders.get(pipeline.shader.raw) else { return warnStale("shader") }
        glUseProgram(shader.program)
        currentShader = shader
        if pipeline.depthTest { glEnable(GLenum(GL_DEPTH_TEST)) } else { glDisable(GLenum(GL_DEPTH_TEST)) }
        glDepthMask(GLboolean(pipeline.depthWrite ? GL_TRUE : GL_FALSE))
        switch pipeline.blend {
        case .opaque:
            glDisable(GLenum(GL_BLEND))
        case .alpha:
            glEnable(GLenum(GL_BLEND))
            glBlendFunc(GLenum(GL_SRC_ALPHA), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        }
        if pipeline.cullBackFaces { glEnable(GLenum(GL_CULL_FACE)) } else { glDisable(GLenum(GL_CULL_FACE)) }
    }
}
