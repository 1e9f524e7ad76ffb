/// RGBA8 pixels, top row first: screenshots and what tests inspect.
public struct Image: Hashable, Sendable {
    public let width: Int
    public let height: Int
    /// width × height × 4 bytes (r, g, b, a), rows top to bottom.
    public let pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "Image needs width × height × 4 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// From GL's bottom-up row order.
    init(width: Int, height: Int, bottomUpRGBA: [UInt8]) {
        let row = width * 4
        var flipped = [UInt8](repeating: 0, count: bottomUpRGBA.count)
        for y in 0..<height {
            let src = (height - 1 - y) * row
            flipped.replaceSubrange(y * row..<(y + 1) * row, with: bottomUpRGBA[src..<src + row])
        }
        self.init(width: width, height: height, pixels: flipped)
    }

    /// The colour at column `x`, row `y` (from the top).
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}
