/// How far two pictures of the same scene differ: the share of pixels whose colour moved by more
/// than a few counts. Software GL (llvmpipe) may shade an edge pixel a count or two apart between
/// builds, so comparing exactly would fail on noise, while a drawn scene that moved (a teapot turned
/// by a degree, a number changed) moves hundreds of pixels by tens of counts.
///
///     let drift = try #require(rendered.difference(from: committed, beyond: 16))
///     #expect(drift.share <= 0.0025)
public struct ImageDifference: Hashable, Sendable {
    /// Pixels whose largest channel difference (r, g or b) is above the threshold.
    public var differingPixels: Int
    public var totalPixels: Int
    /// differingPixels / totalPixels, 0…1.
    public var share: Double { totalPixels == 0 ? 0 : Double(differingPixels) / Double(totalPixels) }
}

extension Image {
    /// Compares colour (alpha ignored) pixel by pixel; nil when the sizes differ.
    public func difference(from other: Image, beyond counts: UInt8) -> ImageDifference? {
        guard width == other.width, height == other.height else { return nil }
        var differing = 0
        pixels.withUnsafeBufferPointer { a in
            other.pixels.withUnsafeBufferPointer { b in
                var i = 0
                while i < a.count {
                    let dr = a[i] > b[i] ? a[i] - b[i] : b[i] - a[i]
                    let dg = a[i + 1] > b[i + 1] ? a[i + 1] - b[i + 1] : b[i + 1] - a[i + 1]
                    let db = a[i + 2] > b[i + 2] ? a[i + 2] - b[i + 2] : b[i + 2] - a[i + 2]
                    if max(dr, dg, db) > counts { differing += 1 }
                    i += 4
                }
            }
        }
        return ImageDifference(differingPixels: differing, totalPixels: width * height)
    }
}
