import CGL

/// An offscreen framebuffer: headless rendering, tests and screenshots at a fixed size.
public struct RenderTargetDesc: Sendable {
    public var size: PixelSize
    public var label: String

    public init(size: PixelSize, label: String = "render target") {
        self.size = size
        self.label = label
    }
}

struct RenderTargetResource {
    var framebuffer: GLuint
    var colorBuffer: GLuint
    var depthBuffer: GLuint
    var size: PixelSize

    func deleteGLObjects() {
        var fb = framebuffer, c = colorBuffer, d = depthBuffer
        glDeleteFramebuffers(1, &fb)
        glDeleteRenderbuffers(1, &c)
        glDeleteRenderbuffers(1, &d)
    }
}

extension Graphics {
    /// An RGBA8 colour buffer with a 24-bit depth buffer.
    public func makeRenderTarget(_ desc: RenderTargetDesc) throws(EngineError) -> RenderTargetID {
        guard desc.size.width > 0, desc.size.height > 0 else {
            throw .invalidDescription("\(desc.label) has size \(desc.size)")
        }
        var fb: GLuint = 0, color: GLuint = 0, depth: GLuint = 0
        glGenFramebuffers(1, &fb)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), fb)
        glGenRenderbuffers(1, &color)
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), color)
        glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), GLsizei(desc.size.width), GLsizei(desc.size.height))
        glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), color)
        glGenRenderbuffers(1, &depth)
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), depth)
        glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_DEPTH_COMPONENT24), GLsizei(desc.size.width), GLsizei(desc.size.height))
        glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_DEPTH_ATTACHMENT), GLenum(GL_RENDERBUFFER), depth)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
        let resource = RenderTargetResource(framebuffer: fb, colorBuffer: color, depthBuffer: depth, size: desc.size)
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            resource.deleteGLObjects()
            throw .resourceCreationFailed("\(desc.label) \(desc.size) is incomplete (status 0x\(String(status, radix: 16)))")
        }
        return RenderTargetID(raw: targets.insert(resource))
    }

    public func destroyRenderTarget(_ id: RenderTargetID) {
        targets.remove(id.raw)?.deleteGLObjects()
    }

    /// The colour of the pass in progress (or the last one), top row first.
    public func readPixels() -> Image {
        let (size, framebuffer) = currentPass ?? (PixelSize(width: 0, height: 0), 0)
        guard size.width > 0, size.height > 0 else { return Image(width: 0, height: 0, pixels: []) }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        var bottomUp = [UInt8](repeating: 0, count: size.width * size.height * 4)
        bottomUp.withUnsafeMutableBytes {
            glReadPixels(0, 0, GLsizei(size.width), GLsizei(size.height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        return Image(width: size.width, height: size.height, bottomUpRGBA: bottomUp)
    }
}
