import CSDL2Image

// PNG encoding and decoding through SDL2_image; the only file that uses it.

extension Image {
    /// Writes the image as a PNG file (RGBA, 8 bits per channel).
    public func writePNG(to path: String) throws(EngineError) {
        guard width > 0, height > 0 else { throw .imageWriteFailed(path: path, detail: "the image is empty") }
        var bytes = pixels
        let result: Int32 = bytes.withUnsafeMutableBytes { buffer in
            guard let surface = SDL_CreateRGBSurfaceWithFormatFrom(
                buffer.baseAddress, Int32(width), Int32(height), 32, Int32(width * 4),
                UInt32(SDL_PIXELFORMAT_ABGR8888.rawValue))  // bytes r, g, b, a on little-endian
            else { return -2 }
            defer { SDL_FreeSurface(surface) }
            return IMG_SavePNG(surface, path)
        }
        if result != 0 {
            throw .imageWriteFailed(path: path, detail: result == -2 ? "could not wrap the pixels" : String(cString: SDL_GetError()))
        }
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
