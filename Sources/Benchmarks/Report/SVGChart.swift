import Foundation
import Histogram

/// A small hand-written SVG chart: axes with ticks, a legend, and any number of series drawn as
/// lines or as step outlines (histograms). Self-contained output, no scripts or external fonts.
///
///     var chart = SVGChart(title: "Pull cost", xLabel: "ns per pull", yLabel: "% of pulls", xScale: .log10)
///     chart.series.append(.init(name: "LatestValue", points: [(5, 40), (6, 55), (7, 5)], style: .steps))
///     try chart.svg().write(to: url, atomically: true, encoding: .utf8)
public struct SVGChart: Sendable {
    public enum Scale: Sendable { case linear, log10 }
    public enum Style: Sendable {
        /// Straight segments between points.
        case line
        /// A histogram outline: each point is a bin's left edge and its height, the last point closes it.
        case steps
    }

    public struct Series: Sendable {
        public var name: String
        public var points: [Point]
        public var style: Style

        public init(name: String, points: [(Double, Double)], style: Style = .line) {
            self.name = name
            self.points = points.map { Point(x: $0.0, y: $0.1) }
            self.style = style
        }
    }

    public struct Point: Sendable, Hashable {
        public var x: Double
        public var y: Double
    }

    /// A vertical marker line such as a target or an ideal value.
    public struct Marker: Sendable {
        public var x: Double
        public var label: String
        public init(x: Double, label: String) { self.x = x; self.label = label }
    }

    public var title: String
    public var xLabel: String
    public var yLabel: String
    public var xScale: Scale
    public var series: [Series] = []
    public var markers: [Marker] = []
    public var width = 900.0
    public var height = 480.0
    /// Long series are reduced to this many points per series, keeping each bucket's min and max
    /// so spikes stay visible.
    public var maxPointsPerSeries = 1600

    public init(title: String, xLabel: String, yLabel: String, xScale: Scale = .linear) {
        self.title = title
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.xScale = xScale
    }

    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"]

    private let margin = (left: 70.0, right: 20.0, top: 40.0, bottom: 52.0)

    /// The chart as an SVG document.
    public func svg() -> String {
        let shown = series.map { reduced($0) }
        let usable = shown.flatMap { $0.points }.filter { $0.x.isFinite && $0.y.isFinite && (xScale == .linear || $0.x > 0) }
        var xs = usable.map { transformX($0.x) } + markers.filter { xScale == .linear || $0.x > 0 }.map { transformX($0.x) }
        if xs.isEmpty { xs = [0, 1] }
        var (xMin, xMax) = (xs.min()!, xs.max()!)
        if xMax - xMin < 1e-12 { xMin -= 0.5; xMax += 0.5 }
        let yMaxData = usable.map(\.y).max() ?? 1
        let yTicks = SVGChart.niceTicks(lower: Swift.min(0, usable.map(\.y).min() ?? 0), upper: yMaxData > 0 ? yMaxData : 1)
        let (yMin, yMax) = (yTicks.first!, yTicks.last!)

        let plotW = width - margin.left - margin.right
        let plotH = height - margin.top - margin.bottom
        func px(_ x: Double) -> Double { margin.left + (transformX(x) - xMin) / (xMax - xMin) * plotW }
        func py(_ y: Double) -> Double { margin.top + plotH - (y - yMin) / (yMax - yMin) * plotH }

        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(f(width))" height="\(f(height))" viewBox="0 0 \(f(width)) \(f(height))" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12">
        <rect width="100%" height="100%" fill="white"/>
        <text x="\(f(width / 2))" y="22" text-anchor="middle" font-size="16" font-weight="bold">\(escape(title))</text>

        """
        // Grid and ticks.
        out += "<g class=\"axes\" stroke=\"#ccc\" stroke-width=\"1\">\n"
        for tick in yTicks {
            out += "<line x1=\"\(f(margin.left))\" y1=\"\(f(py(tick)))\" x2=\"\(f(margin.left + plotW))\" y2=\"\(f(py(tick)))\"/>\n"
        }
        let xTicks = xScale == .log10
            ? SVGChart.decadeTicks(lower: xMin, upper: xMax)
            : SVGChart.niceTicks(lower: xMin, upper: xMax).filter { $0 >= xMin - 1e-9 && $0 <= xMax + 1e-9 }
        for tick in xTicks {
            let x = margin.left + (tick - xMin) / (xMax - xMin) * plotW
            out += "<line x1=\"\(f(x))\" y1=\"\(f(margin.top))\" x2=\"\(f(x))\" y2=\"\(f(margin.top + plotH))\"/>\n"
        }
        out += "</g>\n<g class=\"labels\" fill=\"#333\">\n"
        for tick in yTicks {
            out += "<text x=\"\(f(margin.left - 6))\" y=\"\(f(py(tick) + 4))\" text-anchor=\"end\">\(SVGChart.label(tick))</text>\n"
        }
        for tick in xTicks {
            let x = margin.left + (tick - xMin) / (xMax - xMin) * plotW
            let value = xScale == .log10 ? pow(10, tick) : tick
            out += "<text x=\"\(f(x))\" y=\"\(f(margin.top + plotH + 16))\" text-anchor=\"middle\">\(SVGChart.label(value))</text>\n"
        }
        out += "<text x=\"\(f(margin.left + plotW / 2))\" y=\"\(f(height - 12))\" text-anchor=\"middle\">\(escape(xLabel))</text>\n"
        out += "<text x=\"0\" y=\"0\" text-anchor=\"middle\" transform=\"translate(18,\(f(margin.top + plotH / 2))) rotate(-90)\">\(escape(yLabel))</text>\n"
        out += "</g>\n"
        out += "<rect x=\"\(f(margin.left))\" y=\"\(f(margin.top))\" width=\"\(f(plotW))\" height=\"\(f(plotH))\" fill=\"none\" stroke=\"#333\"/>\n"

        // Series.
        for (index, s) in shown.enumerated() {
            let color = SVGChart.palette[index % SVGChart.palette.count]
            let points = s.points.filter { $0.x.isFinite && $0.y.isFinite && (xScale == .linear || $0.x > 0) }
            var coordinates: [(Double, Double)] = []
            switch s.style {
            case .line:
                coordinates = points.map { (px($0.x), py($0.y)) }
            case .steps:
                for (i, p) in points.enumerated() {
                    let x0 = px(p.x)
                    let x1 = i + 1 < points.count ? px(points[i + 1].x) : x0
                    if i == 0 { coordinates.append((x0, py(Swift.max(yMin, 0)))) }
                    coordinates.append((x0, py(p.y)))
                    coordinates.append((x1, py(p.y)))
                }
                if let last = coordinates.last { coordinates.append((last.0, py(Swift.max(yMin, 0)))) }
            }
            let list = coordinates.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " ")
            out += "<g class=\"series\" data-name=\"\(escape(s.name))\">\n"
            out += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.6\" points=\"\(list)\"/>\n"
            out += "</g>\n"
        }

        // Markers.
        for marker in markers where xScale == .linear || marker.x > 0 {
            let x = px(marker.x)
            out += "<g class=\"marker\" data-name=\"\(escape(marker.label))\" stroke=\"#555\" stroke-dasharray=\"5,4\">"
            out += "<line x1=\"\(f(x))\" y1=\"\(f(margin.top))\" x2=\"\(f(x))\" y2=\"\(f(margin.top + plotH))\"/>"
            out += "<text x=\"\(f(x + 4))\" y=\"\(f(margin.top + 14))\" stroke=\"none\" fill=\"#555\">\(escape(marker.label))</text></g>\n"
        }

        // Legend.
        out += "<g class=\"legend\">\n"
        for (index, s) in shown.enumerated() {
            let y = margin.top + 14 + Double(index) * 18
            let x = margin.left + plotW - 230
            let color = SVGChart.palette[index % SVGChart.palette.count]
            out += "<rect x=\"\(f(x))\" y=\"\(f(y - 9))\" width=\"14\" height=\"10\" fill=\"\(color)\"/>"
            out += "<text x=\"\(f(x + 20))\" y=\"\(f(y))\">\(escape(s.name))</text>\n"
        }
        out += "</g>\n</svg>\n"
        return out
    }

    // MARK: Helpers

    private func transformX(_ x: Double) -> Double { xScale == .log10 ? log10(x) : x }

    private func reduced(_ s: Series) -> Series {
        guard s.style == .line, s.points.count > maxPointsPerSeries else { return s }
        var out = s
        let buckets = maxPointsPerSeries / 2
        let per = Double(s.points.count) / Double(buckets)
        out.points = []
        for b in 0..<buckets {
            let slice = s.points[Int(Double(b) * per)..<Swift.min(s.points.count, Int(Double(b + 1) * per))]
            guard let lo = slice.min(by: { $0.y < $1.y }), let hi = slice.max(by: { $0.y < $1.y }) else { continue }
            out.points += lo.x <= hi.x ? [lo, hi] : [hi, lo]
        }
        return out
    }

    /// Round tick values (1, 2, 5 × 10^k) covering lower...upper, about six of them.
    static func niceTicks(lower: Double, upper: Double) -> [Double] {
        let span = Swift.max(upper - lower, 1e-12)
        let raw = span / 5
        let magnitude = pow(10, floor(log10(raw)))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        let first = floor(lower / step) * step
        var ticks: [Double] = []
        var t = first
        while t < upper + step * 0.999 && ticks.count < 50 {
            ticks.append(abs(t) < step * 1e-9 ? 0 : t)
            t += step
        }
        return ticks
    }

    /// Whole decades (in log10 units) inside lower...upper, at least the two ends.
    static func decadeTicks(lower: Double, upper: Double) -> [Double] {
        let ticks = Array(stride(from: ceil(lower), through: floor(upper), by: 1))
        return ticks.isEmpty ? [lower, upper] : ticks
    }

    static func label(_ v: Double) -> String {
        if v == 0 { return "0" }
        let a = abs(v)
        if a >= 1e6 { return Figure.fixed(v / 1e6, a >= 1e7 ? 0 : 1) + "M" }
        if a >= 1e4 { return Figure.fixed(v / 1e3, 0) + "k" }
        if a >= 100 || v == v.rounded() { return Figure.fixed(v, 0) }
        if a >= 1 { return Figure.fixed(v, 1) }
        return Figure.fixed(v, a >= 0.1 ? 2 : 3)
    }

    private func f(_ v: Double) -> String { Figure.fixed(v, 1) }

    private func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

extension SVGChart {
    /// Histogram bins from an HDR histogram on log-spaced edges, as percent of all values per bin,
    /// ready for a `.steps` series. Values are converted to ns with `unitsPerNanosecond`.
    public static func histogramPoints(_ histogram: Histogram<UInt64>, unitsPerNanosecond: Double,
                                       binsPerDecade: Int = 20) -> [(Double, Double)] {
        guard histogram.totalCount > 0 else { return [] }
        let perDecade = Double(binsPerDecade)
        func bin(_ value: UInt64) -> Int { Int((log10(Double(Swift.max(1, value))) * perDecade).rounded(.down)) }
        let first = bin(histogram.min), last = bin(histogram.max)
        var counts = [UInt64](repeating: 0, count: last - first + 1)
        // Each recorded value lands in exactly one log bin, so the bins add up to every value.
        for recorded in histogram.recordedValues() {
            let b = Swift.min(last, Swift.max(first, bin(recorded.value)))
            counts[b - first] += recorded.countAddedInThisIterationStep
        }
        let total = Double(histogram.totalCount)
        var points = counts.enumerated().map { (pow(10, Double(first + $0.offset) / perDecade) / unitsPerNanosecond, Double($0.element) / total * 100) }
        points.append((pow(10, Double(last + 1) / perDecade) / unitsPerNanosecond, 0))
        return points
    }
}
