import CGL

/// Texel formats the engine uploads.
public enum TextureFormat: Sendable {
    /// One byte per texel, sampled as `.r` (masks, font atlases).
    case r8
    /// Four bytes per texel.
    case rgba8

    var bytesPerTexel: Int { self == .r8 ? 1 : 4 }
}

/// Sampling between texels.
public enum TextureFilter: Sendable { case nearest, linear }

/// Everything to create a 2D texture; rows start at the top.
public struct TextureDesc: Sendable {
    public var width: Int
    public var height: Int
    public var format: TextureFormat
    public var pixels: [UInt8]
    public var filter: TextureFilter
    public var label: String

    public init(width: Int, height: Int, format: TextureFormat = .rgba8, pixels: [UInt8],
                filter: TextureFilter = .nearest, label: String = "texture") {
        self.width = width
        self.height = height
        self.format = format
        self.pixels = pixels
        self.filter = filter
        self.label = label
    }
}

struct TextureResource {
    var name: GLuint
}

extension Graphics {
    public func makeTexture(_ desc: TextureDesc) throws(EngineError) -> TextureID {
        guard desc.width > 0, desc.height > 0, desc.pixels.count == desc.width * desc.height * desc.format.bytesPerTexel else {
            throw .invalidDescription("texture \(desc.label): \(desc.pixels.count) bytes for \(desc.width)x\(desc.height)")
        }
        var name: GLuint = 0
        glGenTextures(1, &name)
        glBindTexture(GLenum(GL_TEXTURE_2D), name)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        let (internalFormat, format) = desc.format == .r8 ? (GL_R8, GL_RED) : (GL_RGBA8, GL_RGBA)
        desc.pixels.withUnsafeBytes {
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, internalFormat, GLsizei(desc.width), GLsizei(desc.height), 0,
                         GLenum(format), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        let filter = desc.filter == .nearest ? GL_NEAREST : GL_LINEAR
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), filter)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), filter)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        return TextureID(raw: textures.insert(TextureResource(name: name)))
    }

    /// Binds `id` to texture unit `unit` and points the sampler uniform `sampler` at it.
    public func bindTexture(_ id: TextureID, unit: Int = 0, sampler: String) {
        guard let t = textures.get(id.raw) else { return warnStale("texture") }
        glActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit)))
        glBindTexture(GLenum(GL_TEXTURE_2D), t.name)
        setUniform(sampler, Int32(unit))
    }
}
