import Engine
import Foundation

/// Runs `body` with a headless GL 3.3 context (SDL's offscreen driver when there is no display,
/// a hidden window under Xvfb) and an offscreen target of `size`.
///
/// The context is current only on the thread that created it, so everything happens inside this
/// one synchronous call (Swift Testing runs a synchronous test body on a single thread). Window
/// creation is serialised inside `Window`, so suites running in parallel can each call this.
func withHeadlessGraphics<T>(size: PixelSize,
                             _ body: (Graphics, ShaderLibrary, RenderTargetID) throws -> T) throws -> T {
    let window = try Window(WindowDesc(size: size, headless: true))
    defer { window.close() }
    let graphics = try Graphics()
    defer { graphics.shutdown() }
    let target = try graphics.makeRenderTarget(RenderTargetDesc(size: size))
    return try body(graphics, ShaderLibrary.locate(), target)
}

/// The pixels an image's predicate selects, summarised: how many, their centroid and the angle of
/// their principal axis (from the second moments), in image coordinates (y down).
struct Silhouette {
    let count: Int
    let fraction: Double
    let centroid: (x: Double, y: Double)
    /// Radians, −π/2...π/2, measured from +x toward +y (clockwise on screen).
    let principalAngle: Double
    /// Pixel indices selected, for overlap comparisons.
    let mask: [Bool]

    init(_ image: Image, where selects: (UInt8, UInt8, UInt8) -> Bool) {
        var mask = [Bool](repeating: false, count: image.width * image.height)
        var n = 0.0, sx = 0.0, sy = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixel(x: x, y: y)
                if selects(p.r, p.g, p.b) {
                    mask[y * image.width + x] = true
                    n += 1; sx += Double(x); sy += Double(y)
                }
            }
        }
        let cx = n > 0 ? sx / n : 0, cy = n > 0 ? sy / n : 0
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width where mask[y * image.width + x] {
                let dx = Double(x) - cx, dy = Double(y) - cy
                sxx += dx * dx; syy += dy * dy; sxy += dx * dy
            }
        }
        self.count = Int(n)
        self.fraction = n / Double(image.width * image.height)
        self.centroid = (cx, cy)
        self.principalAngle = 0.5 * atan2(2 * sxy, sxx - syy)
        self.mask = mask
    }

    /// Intersection over union of two masks of the same size.
    func overlap(with other: Silhouette) -> Double {
        var both = 0, either = 0
        for (a, b) in zip(mask, other.mask) {
            if a && b { both += 1 }
            if a || b { either += 1 }
        }
        return either > 0 ? Double(both) / Double(either) : 1
    }
}

/// Angle difference folded into −π/2...π/2 (principal axes have no direction).
func axisDifference(_ a: Double, _ b: Double) -> Double {
    var d = a - b
    while d > .pi / 2 { d -= .pi }
    while d < -.pi / 2 { d += .pi }
    return d
}
