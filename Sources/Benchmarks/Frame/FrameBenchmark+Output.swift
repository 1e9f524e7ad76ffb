/// What `bench frame` prints and stores.
public struct FrameReport: Codable, Sendable {
    public var renderer: String
    public var scenes: [FrameBenchmark.SceneResult]
    /// Scenes that could not run, with why.
    public var skipped: [String]

    public init(renderer: String, scenes: [FrameBenchmark.SceneResult], skipped: [String]) {
        self.renderer = renderer
        self.scenes = scenes
        self.skipped = skipped
    }

    public var text: String {
        func ms(_ ns: Double) -> String { Figure.fixed(ns / 1e6, 2) }
        var t = TextTable(["scene", "size", "frames", "p50 ms", "p90 ms", "p99 ms", "max ms", "mean fps"])
        for s in scenes {
            t.append([s.scene, s.size, String(s.frames), ms(s.frameTime.p50), ms(s.frameTime.p90), ms(s.frameTime.p99),
                      ms(s.frameTime.max), Figure.fixed(s.framesPerSecond, 1)])
        }
        var lines = ["Headless offscreen, no vsync, on \(renderer); frame = update start (motion pull) → glFinish.", "", t.rendered]
        if !skipped.isEmpty { lines.append("\nSkipped: " + skipped.joined(separator: "; ")) }
        return lines.joined(separator: "\n")
    }
}

extension FrameBenchmark {
    /// Frame-time histograms per scene.
    public static func charts(_ report: FrameReport, timings: [String: [Double]]) -> [(file: String, chart: SVGChart)] {
        var chart = SVGChart(title: "Frame time, headless \(report.scenes.first?.size ?? "")", xLabel: "frame time, ms",
                             yLabel: "% of frames")
        for s in report.scenes {
            guard let values = timings[s.scene], let maximum = values.max(), maximum > 0 else { continue }
            let bins = 40
            let width = maximum / Double(bins) * 1.0001
            var counts = [Double](repeating: 0, count: bins)
            for v in values { counts[Swift.min(bins - 1, Int(v / width))] += 1 }
            var points = counts.enumerated().map { (Double($0.offset) * width / 1e6, $0.element / Double(values.count) * 100) }
            points.append((Double(bins) * width / 1e6, 0))
            chart.series.append(.init(name: s.scene, points: points, style: .steps))
        }
        return [("frame-time.svg", chart)]
    }
}
