/// A strip chart in the style of Apple's AccelerometerGraph: a dark panel, a zero line, and
/// one polyline per series scaled to a fixed value range, newest sample at the right.
///
///     let plot = GraphPlot(x: 16, y: 500, width: 400, height: 120, range: -2...2)
///     plot.draw(series: [GraphSeries(gravity, color: .yellow, width: 3), GraphSeries(raw, color: .white)],
///               capacity: 240, on: overlay)
public struct GraphPlot: Sendable {
    public var x: Float
    public var y: Float
    public var width: Float
    public var height: Float
    /// Values mapped to the bottom and top edges; values outside are clamped to the edge.
    public var range: ClosedRange<Float>
    public var background: Color

    public init(x: Float, y: Float, width: Float, height: Float, range: ClosedRange<Float>,
                background: Color = Color(0, 0, 0, 0.55)) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.range = range
        self.background = background
    }

    /// The pixel row of `value`.
    public func row(for value: Float) -> Float {
        let t = (min(max(value, range.lowerBound), range.upperBound) - range.lowerBound) / (range.upperBound - range.lowerBound)
        return y + height * (1 - t)
    }

    /// Draws the panel and each series (equal sample spacing across the width). `capacity` is the
    /// number of samples the width holds; shorter series are right-aligned.
    public func draw(series: [GraphSeries], capacity: Int, on overlay: Overlay) {
        overlay.rect(x: x, y: y, width: width, height: height, color: background)
        if range.contains(0) {
            overlay.line(from: (x, row(for: 0)), to: (x + width, row(for: 0)), width: 1, color: Color(1, 1, 1, 0.3))
        }
        let step = width / Float(max(capacity - 1, 1))
        for s in series {
            let values = s.values.suffix(capacity)
            let start = x + width - step * Float(values.count - 1)
            let points = values.enumerated().map { (x: start + step * Float($0.offset), y: row(for: $0.element)) }
            overlay.polyline(points, width: s.width, color: s.color)
        }
    }
}

/// One line of a `GraphPlot`: values in the plot's units, drawn in order (later series on top).
public struct GraphSeries: Sendable {
    public var values: [Float]
    public var color: Color
    /// Line width, pixels: draw a smooth series wide under a noisy one so both stay visible.
    public var width: Float

    public init(_ values: [Float], color: Color, width: Float = 1.5) {
        self.values = values
        self.color = color
        self.width = width
    }
}
