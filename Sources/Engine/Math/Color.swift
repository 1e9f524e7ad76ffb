/// A linear RGBA colour, each channel 0...1.
public struct Color: Hashable, Sendable {
    public var r: Float
    public var g: Float
    public var b: Float
    public var a: Float

    public init(_ r: Float, _ g: Float, _ b: Float, _ a: Float = 1) { self.r = r; self.g = g; self.b = b; self.a = a }

    /// From 0xRRGGBB, e.g. `Color(hex: 0xE6C229)`.
    public init(hex: UInt32, alpha: Float = 1) {
        self.init(Float((hex >> 16) & 0xFF) / 255, Float((hex >> 8) & 0xFF) / 255, Float(hex & 0xFF) / 255, alpha)
    }

    public func withAlpha(_ a: Float) -> Color { Color(r, g, b, a) }

    public static let white = Color(1, 1, 1)
    public static let black = Color(0, 0, 0)
    public static let red = Color(0.9, 0.2, 0.2)
    public static let green = Color(0.2, 0.8, 0.3)
    public static let blue = Color(0.25, 0.45, 1)
    public static let yellow = Color(1, 0.85, 0.2)
    public static let gray = Color(0.5, 0.5, 0.5)
}
