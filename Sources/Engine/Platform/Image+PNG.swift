import CSDL2
import CSDL2Image
import Glibc

// PNG encoding and decoding through SDL2_image; the only file that uses it.

extension Image {
    /// Writes the image as a PNG file (RGBA, 8 bits per channel). Encoded in memory first and written
    /// with every write's result checked: SDL_image writing the file itself reported success on a
    /// full disk (`/dev/full`), leaving no screenshot or half of one.
    public func writePNG(to path: String) throws(EngineError) {
        guard width > 0, height > 0 else { throw .imageWriteFailed(path: path, detail: "the image is empty") }
        let png = try encodedPNG(path: path)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .imageWriteFailed(path: path, detail: String(cString: strerror(errno))) }
        var written = 0
        while written < png.count {
            let n = png.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, png.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let detail = n == 0 ? "nothing written" : String(cString: strerror(errno))
                close(fd)
                throw .imageWriteFailed(path: path, detail: detail)
            }
            written += n
        }
        guard close(fd) == 0 else { throw .imageWriteFailed(path: path, detail: String(cString: strerror(errno))) }
    }

    /// The PNG file's bytes. The buffer holds the pixels uncompressed and zlib's and the chunks'
    /// overhead, the most an encoding can take.
    private func encodedPNG(path: String) throws(EngineError) -> [UInt8] {
        let raw = width * height * 4 + height
        var png = [UInt8](repeating: 0, count: raw + raw / 256 + 65_536)
        var pixelBytes = pixels
        let size: Int = pixelBytes.withUnsafeMutableBytes { pixelBuffer in
            guard let surface = SDL_CreateRGBSurfaceWithFormatFrom(
                pixelBuffer.baseAddress, Int32(width), Int32(height), 32, Int32(width * 4),
                UInt32(SDL_PIXELFORMAT_ABGR8888.rawValue))  // bytes r, g, b, a on little-endian
            else { return -2 }
            defer { SDL_FreeSurface(surface) }
            return png.withUnsafeMutableBytes { out in
                guard let stream = SDL_RWFromMem(out.baseAddress, Int32(out.count)) else { return -1 }
                defer { SDL_RWclose(stream) }
                guard IMG_SavePNG_RW(surface, stream, 0) == 0 else { return -1 }
                return Int(SDL_RWtell(stream))
            }
        }
        guard size > 0 else {
            throw .imageWriteFailed(path: path, detail: size == -2 ? "could not wrap the pixels" : String(cString: SDL_GetError()))
        }
        png.removeSubrange(size...)
        return png
    }

    /// Reads a PNG file (any colour type SDL2_image decodes), as RGBA, top row first.
    ///
    ///     let committed = try Image(contentsOfPNG: "Assets/screenshots/cart.png")
    public init(contentsOfPNG path: String) throws(EngineError) {
        guard let loaded = IMG_Load(path) else { throw .imageReadFailed(path: path, detail: String(cString: SDL_GetError())) }
        defer { SDL_FreeSurface(loaded) }
        guard let rgba = SDL_ConvertSurfaceFormat(loaded, UInt32(SDL_PIXELFORMAT_ABGR8888.rawValue), 0) else {
            throw .imageReadFailed(path: path, detail: String(cString: SDL_GetError()))
        }
        defer { SDL_FreeSurface(rgba) }
        let width = Int(rgba.pointee.w), height = Int(rgba.pointee.h), pitch = Int(rgba.pointee.pitch)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        if let source = rgba.pointee.pixels {
            SDL_LockSurface(rgba)
            pixels.withUnsafeMutableBytes { target in
                for y in 0..<height {
                    (target.baseAddress! + y * width * 4).copyMemory(from: source + y * pitch, byteCount: width * 4)
                }
            }
            SDL_UnlockSurface(rgba)
        }
        self.init(width: width, height: height, pixels: pixels)
    }
}
