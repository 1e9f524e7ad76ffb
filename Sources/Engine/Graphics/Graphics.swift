import CGL
import Foundation

/// The GL layer: owns every GL object behind typed handles and runs the frame as a short,
/// explicit sequence (sokol_gfx's shape). It never sees SDL: the platform creates the context,
/// makes it current, and then hands over.
///
///     let gfx = try Graphics()                                   // checks GL ≥ 3.3 core
///     let shader = try gfx.makeShader(library.load("lit"))
///     let mesh = try gfx.makeMesh(MeshDesc(vertices: v, layout: [.float3, .float3], indices: i))
///     gfx.beginPass(size: window.drawableSize, action: PassAction(clearColor: .black))
///     gfx.applyPipeline(Pipeline(shader: shader, depthTest: true))
///     gfx.setUniform("uModelViewProjection", mvp)
///     gfx.draw(mesh)
///     gfx.endPass()
///
/// All calls must come from the thread the context is current on.
public final class Graphics {
    /// What the driver reported when the layer started.
    public let info: GLInfo

    var shaders = HandlePool<ShaderResource>()
    var meshes = HandlePool<MeshResource>()
    var textures = HandlePool<TextureResource>()
    var targets = HandlePool<RenderTargetResource>()

    /// The program applied by the last `applyPipeline`, for `setUniform`.
    var currentShader: ShaderResource?
    /// The pass in progress: its pixel size, framebuffer (0 = the window's) and, for multisampled
    /// targets, the framebuffer `readPixels` resolves into (0 = none).
    var currentPass: (size: PixelSize, framebuffer: GLuint, resolveFramebuffer: GLuint)?

    /// Reads the current context's version and fails unless it is at least `minimumVersion`
    /// with the core profile's features (vertex array objects, GLSL 3.30).
    public init(minimumVersion: (major: Int, minor: Int) = (3, 3)) throws(EngineError) {
        let info = GLInfo.current()
        let required = "\(minimumVersion.major).\(minimumVersion.minor) core"
        guard !info.version.isEmpty else {
            throw .openGLUnavailable(required: required, found: nil, detail: "no current GL context")
        }
        guard (info.major, info.minor) >= minimumVersion else {
            throw .openGLUnavailable(required: required, found: info.summary,
                                     detail: "context version \(info.major).\(info.minor) is too old")
        }
        self.info = info
        glEnable(GLenum(GL_DEPTH_TEST))
    }

    /// Deletes every GL object still alive. Call before the context goes away.
    public func shutdown() {
        for s in shaders.all { glDeleteProgram(s.program) }
        for m in meshes.all { m.deleteGLObjects() }
        for t in textures.all { var name = t.name; glDeleteTextures(1, &name) }
        for t in targets.all { t.deleteGLObjects() }
        shaders = HandlePool()
        meshes = HandlePool()
        textures = HandlePool()
        targets = HandlePool()
        currentShader = nil
    }

    /// Reports a stale or foreign handle once per call site kind, rather than crashing.
    func warnStale(_ what: String) {
        if !warnedStale.contains(what) {
            warnedStale.insert(what)
            FileHandle.standardError.write(Data("engine: ignoring a call with a stale \(what) handle\n".utf8))
        }
    }
    private var warnedStale: Set<String> = []
}

/// The driver's identity and context version.
public struct GLInfo: Hashable, Sendable {
    public var vendor: String
    public var renderer: String
    /// The full GL_VERSION string, e.g. "4.5 (Core Profile) Mesa 22.3.6".
    public var version: String
    public var shadingLanguageVersion: String
    public var major: Int
    public var minor: Int

    /// "OpenGL 4.5 (Core Profile) Mesa 22.3.6 on llvmpipe (LLVM 15.0.6, 256 bits)".
    public var summary: String { "OpenGL \(version) on \(renderer)" }

    /// Queries the context current on this thread (empty strings when there is none).
    public static func current() -> GLInfo {
        func string(_ name: Int32) -> String {
            guard let p = glGetString(GLenum(name)) else { return "" }
            return String(cString: p)
        }
        var major: GLint = 0, minor: GLint = 0
        let version = string(GL_VERSION)
        glGetIntegerv(GLenum(GL_MAJOR_VERSION), &major)
        glGetIntegerv(GLenum(GL_MINOR_VERSION), &minor)
        if major == 0, let parsed = parseVersion(version) { (major, minor) = (GLint(parsed.0), GLint(parsed.1)) }
        return GLInfo(vendor: string(GL_VENDOR), renderer: string(GL_RENDERER), version: version,
                      shadingLanguageVersion: string(GL_SHADING_LANGUAGE_VERSION),
                      major: Int(major), minor: Int(minor))
    }

    /// "3.3.0 Mesa…" → (3, 3); GL 2.x contexts have no GL_MAJOR_VERSION query.
    static func parseVersion(_ s: String) -> (Int, Int)? {
        let digits = s.split(separator: " ").first?.split(separator: ".") ?? []
        guard digits.count >= 2, let a = Int(digits[0]), let b = Int(digits[1]) else { return nil }
        return (a, b)
    }
}
