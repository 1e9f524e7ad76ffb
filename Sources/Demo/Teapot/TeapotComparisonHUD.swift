import Engine
import Foundation
import Motion

/// The compare view's labels and strip: each half named for its estimator, a divider, and a strip
/// across the bottom of the angle between the two gravities and, where the source carries a
/// reference, each one's error against it (degrees).
enum TeapotComparisonHUD {
    static let separationColor = Color(1, 1, 1)
    static let fusionColor = Color(0.4, 0.9, 0.5)
    static let accelerometerOnlyColor = Color(1, 0.55, 0.3)

    /// The two labels, left then right.
    static func labels(_ state: TeapotState) -> (fusion: String, accelerometerOnly: String) {
        let translation = state.mode == .translation
        return (translation ? "FUSION: user acceleration" : "FUSION: gyro + accelerometer",
                translation ? String(format: "ACCEL ONLY: high-passed accelerometer (%.2g Hz)", state.gravityCutoff)
                    : String(format: "ACCEL ONLY: low-passed gravity (%.2g Hz)", state.gravityCutoff))
    }

    /// The strip's legend with the latest values, e.g. "apart 12.3  fusion err 0.8  accel err 12.9 deg".
    static func legend(_ comparison: TeapotComparison) -> [(String, Color)] {
        guard let last = comparison.strip.last else { return [("waiting for samples", separationColor)] }
        var items = [(String(format: "apart %.1f", last.separation), separationColor)]
        if let e = last.fusionError { items.append((String(format: "fusion err %.1f", e), fusionColor)) }
        if let e = last.accelerometerOnlyError { items.append((String(format: "accel err %.1f", e), accelerometerOnlyColor)) }
        items.append((last.fusionError == nil ? "deg (no reference in this source)" : "deg vs reference", Color(0.8, 0.8, 0.8)))
        return items
    }

    static func draw(_ state: TeapotState, overlay: Overlay, size: PixelSize, scale: Float) {
        let width = Float(size.width), height = Float(size.height)
        let stripHeight = height * 0.16
        let plot = GraphPlot(x: 8, y: height - stripHeight - 12 - 10 * scale, width: width - 16, height: stripHeight,
                             range: 0...state.comparison.stripRange)
        overlay.rect(x: width / 2 - 1, y: 0, width: 2, height: plot.y - 4, color: Color(1, 1, 1, 0.35))
        let (left, right) = labels(state)
        let labelY = plot.y - 14 * scale - 6
        for (text, x, color) in [(left, Float(16), fusionColor), (right, width / 2 + 16, accelerometerOnlyColor)] {
            let box = Overlay.measure(text, scale: scale)
            overlay.rect(x: x - 6, y: labelY - 4, width: box.width + 12, height: box.height + 8, color: Color(0, 0, 0, 0.6))
            overlay.text(text, x: x, y: labelY, scale: scale, color: color)
        }
        let series = state.comparison.stripSeries
        plot.draw(series: [GraphSeries(series.separation, color: separationColor, width: 3),
                           GraphSeries(series.fusionError, color: fusionColor, width: 2),
                           GraphSeries(series.accelerometerOnlyError, color: accelerometerOnlyColor, width: 2)],
                  capacity: TeapotState.graphCapacity, on: overlay)
        overlay.text(String(format: "%.0f", state.comparison.stripRange), x: plot.x + 4, y: plot.y + 3, scale: scale,
                     color: Color(0.8, 0.8, 0.8))
        var x = plot.x
        for (text, color) in legend(state.comparison) {
            overlay.text(text, x: x, y: plot.y + plot.height + 3, scale: scale, color: color)
            x += Overlay.measure(text + "  ", scale: scale).width
        }
    }
}
