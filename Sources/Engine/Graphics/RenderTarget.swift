import CGL

/// An offscreen framebuffer: headless rendering, tests and screenshots at a fixed size.
public struct RenderTargetDesc: Sendable {
    public var size: PixelSize
    /// Samples per pixel: 1 renders aliased; 4 smooths edges (multisample, resolved on `readPixels`).
    public var sampleCount: Int
    public var label: String

    public init(size: PixelSize, sampleCount: Int = 1, label: String = "render target") {
        self.size = size
        self.sampleCount = sampleCount
        self.label = label
    }
}

struct RenderTargetResource {
    var framebuffer: GLuint
    var colorBuffer: GLuint
    var depthBuffer: GLuint
    /// For multisampled targets: a single-sample framebuffer and colour buffer to resolve into; 0 otherwise.
    var resolveFramebuffer: GLuint = 0
    var resolveColorBuffer: GLuint = 0
    var size: PixelSize

    func deleteGLObjects() {
        var names = [framebuffer, resolveFramebuffer]
        glDeleteFramebuffers(2, &names)
        var buffers = [colorBuffer, depthBuffer, resolveColorBuffer]
        glDeleteRenderbuffers(3, &buffers)
    }
}

extension Graphics {
    /// An RGBA8 colour buffer with a 24-bit depth buffer, multisampled when `sampleCount` > 1.
    public func makeRenderTarget(_ desc: RenderTargetDesc) throws(EngineError) -> RenderTargetID {
        guard desc.size.width > 0, desc.size.height > 0, desc.sampleCount >= 1 else {
            throw .invalidDescription("\(desc.label) has size \(desc.size) and \(desc.sampleCount) samples")
        }
        var maxSamples: GLint = 1
        glGetIntegerv(GLenum(GL_MAX_SAMPLES), &maxSamples)
        let samples = GLsizei(min(desc.sampleCount, Int(max(maxSamples, 1))))
        let (w, h) = (GLsizei(desc.size.width), GLsizei(desc.size.height))

        func framebuffer(color format: GLenum, depth: Bool, samples: GLsizei) -> (GLuint, GLuint, GLuint, GLenum) {
            var fb: GLuint = 0, color: GLuint = 0, depthBuffer: GLuint = 0
            glGenFramebuffers(1, &fb)
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), fb)
            func storage(_ buffer: inout GLuint, _ internalFormat: GLenum, _ attachment: Int32) {
                glGenRenderbuffers(1, &buffer)
                glBindRenderbuffer(GLenum(GL_RENDERBUFFER), buffer)
                if samples > 1 {
                    glRenderbufferStorageMultisample(GLenum(GL_RENDERBUFFER), samples, internalFormat, w, h)
                } else {
                    glRenderbufferStorage(GLenum(GL_RENDERBUFFER), internalFormat, w, h)
                }
                glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(attachment), GLenum(GL_RENDERBUFFER), buffer)
            }
            storage(&color, format, GL_COLOR_ATTACHMENT0)
            if depth { storage(&depthBuffer, GLenum(GL_DEPTH_COMPONENT24), GL_DEPTH_ATTACHMENT) }
            let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
            return (fb, color, depthBuffer, status)
        }

        let main = framebuffer(color: GLenum(GL_RGBA8), depth: true, samples: samples)
        var resource = RenderTargetResource(framebuffer: main.0, colorBuffer: main.1, depthBuffer: main.2, size: desc.size)
        var status = main.3
        if samples > 1 && status == GLenum(GL_FRAMEBUFFER_COMPLETE) {
            let resolve = framebuffer(color: GLenum(GL_RGBA8), depth: false, samples: 1)
            resource.resolveFramebuffer = resolve.0
            resource.resolveColorBuffer = resolve.1
            status = resolve.3
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            resource.deleteGLObjects()
            throw .resourceCreationFailed("\(desc.label) \(desc.size) is incomplete (status 0x\(String(status, radix: 16)))")
        }
        return RenderTargetID(raw: targets.insert(resource))
    }

    /// The colour of the pass in progress (or the last one), top row first; a multisampled
    /// target is resolved first.
    public func readPixels() -> Image {
        let (size, drawFramebuffer, resolveFramebuffer) = currentPass ?? (PixelSize(width: 0, height: 0), 0, 0)
        guard size.width > 0, size.height > 0 else { return Image(width: 0, height: 0, pixels: []) }
        var framebuffer = drawFramebuffer
        if resolveFramebuffer != 0 {
            let (w, h) = (GLint(size.width), GLint(size.height))
            glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), drawFramebuffer)
            glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), resolveFramebuffer)
            glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
            framebuffer = resolveFramebuffer
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        var bottomUp = [UInt8](repeating: 0, count: size.width * size.height * 4)
        bottomUp.withUnsafeMutableBytes {
            glReadPixels(0, 0, GLsizei(size.width), GLsizei(size.height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), drawFramebuffer)
        return Image(width: size.width, height: size.height, bottomUpRGBA: bottomUp)
    }
}
