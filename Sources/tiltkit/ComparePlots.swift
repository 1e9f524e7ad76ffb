import ArgumentParser
import Benchmarks
import Foundation
import MotionEvaluation

/// The charts of `tiltkit compare --plot`: drawn by the benches' `SVGChart`, and turned into PNG by
/// rsvg-convert where it is installed (the README shows PNG).
enum ComparePlots {
    /// Every file `write` may make in `directory` (the SVGs and the PNGs beside them).
    static func files(name: String, in directory: URL) -> [URL] {
        ["error", "lag-jitter"].flatMap { suffix -> [URL] in
            let svg = directory.appendingPathComponent("compare-\(name)-\(suffix).svg")
            return [svg, svg.deletingPathExtension().appendingPathExtension("png")]
        }
    }

    static func write(_ report: TiltComparison, name: String, to directory: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var written: [URL] = []
        for (suffix, chart) in [("error", errorChart(report, name: name)), ("lag-jitter", lagJitterChart(report, name: name))] {
            let svg = directory.appendingPathComponent("compare-\(name)-\(suffix).svg")
            try chart.svg().write(to: svg, atomically: true, encoding: .utf8)
            written.append(svg)
            if let png = try SVGRasterizer.convertToPNG(svg) { written.append(png) }
        }
        return written
    }

    /// Error over time: fusion and the lowest, middle and highest cut-offs.
    static func errorChart(_ report: TiltComparison, name: String) -> SVGChart {
        let against = report.reference == .recording ? "the recording's reference" : "fusion"
        var chart = SVGChart(title: "Tilt error against \(against): \(name)", xLabel: "time (s)", yLabel: "tilt error (deg)")
        let accelerometerOnly = report.rows.filter { $0.cutoff != nil }
        let shown = report.rows.filter { $0.cutoff == nil }
            + [accelerometerOnly.first, accelerometerOnly.dropFirst().dropLast().first { $0.cutoff == 2 }, accelerometerOnly.last]
                .compactMap { $0 }
        for row in shown where !chart.series.contains(where: { $0.name == row.name }) {
            chart.series.append(.init(name: row.name, points: zip(report.times, row.error).filter { $0.1.isFinite }.map { ($0.0, $0.1) }))
        }
        return chart
    }

    /// Lag against jitter: the accelerometer-only cut-offs as one line (low cut-off: steady but
    /// late; high: prompt but shaky), fusion as a cross.
    static func lagJitterChart(_ report: TiltComparison, name: String) -> SVGChart {
        var chart = SVGChart(title: "Lag against jitter: \(name)", xLabel: "jitter at rest (deg RMS)", yLabel: "lag on turns (ms)")
        let accelerometerOnly = report.rows.filter { $0.cutoff != nil && $0.lag.isFinite && $0.jitter.isFinite }
        let cutoffs = accelerometerOnly.compactMap(\.cutoff).map { String(format: "%g", $0) }.joined(separator: ", ")
        chart.series.append(.init(name: "accel only, \(cutoffs) Hz", points: accelerometerOnly.map { ($0.jitter, $0.lag * 1000) }))
        if let fusion = report.rows.first(where: { $0.cutoff == nil }), fusion.lag.isFinite, fusion.jitter.isFinite {
            let dx = max(accelerometerOnly.map(\.jitter).max() ?? 0.1, fusion.jitter) * 0.015
            let dy = max(accelerometerOnly.map { $0.lag * 1000 }.max() ?? 10, 10) * 0.03
            let (x, y) = (fusion.jitter, fusion.lag * 1000)
            chart.series.append(.init(name: String(format: "fusion (%.0f ms, %.3f deg)", y, x),
                                      points: [(x - dx, y), (x + dx, y), (x, y), (x, max(0, y - dy)), (x, y + dy)]))
        }
        return chart
    }
}
