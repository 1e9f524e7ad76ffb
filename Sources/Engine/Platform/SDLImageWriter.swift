import CSDL2Image

// PNG encoding through SDL2_image; the only file that uses it.

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
}
