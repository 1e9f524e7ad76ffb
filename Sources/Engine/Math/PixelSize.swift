/// A size in pixels, e.g. a window's drawable area or a render target.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) { self.width = width; self.height = height }

    /// width / height, or 1 for an empty size.
    public var aspect: Float { height > 0 ? Float(width) / Float(height) : 1 }

    /// Parses "WIDTHxHEIGHT", e.g. "960x540"; nil if malformed or not positive.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        self.init(width: w, height: h)
    }

    public var description: String { "\(width)x\(height)" }
}
