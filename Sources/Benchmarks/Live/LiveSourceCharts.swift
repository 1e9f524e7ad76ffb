/// `--plot DIR` for `bench latency|pull --source`: the report-interval histogram and the age of
/// the pulled sample over time, one series per path (and per frame rate).
public enum LiveSourceCharts {
    public static func charts(_ runs: [(report: LiveSourceReport, series: LiveSourceSeries)]) -> [(file: String, chart: SVGChart)] {
        var intervals = SVGChart(title: "Report intervals", xLabel: "interval, µs", yLabel: "% of intervals")
        let top = runs.flatMap { $0.series.arrivalIntervals + $0.series.timestampIntervals }
        let limit = percentile(top, 99.5) * 1.2
        for (i, run) in runs.enumerated() {
            let tag = runs.count > 1 ? "[\(i + 1)] " : ""
            intervals.series.append(.init(name: "\(tag)by \(run.report.byTimestamp.clock)",
                                          points: bins(run.series.timestampIntervals, upTo: limit), style: .steps))
            intervals.series.append(.init(name: "\(tag)by arrival", points: bins(run.series.arrivalIntervals, upTo: limit), style: .steps))
        }
        // Every pull is a sawtooth too dense to read: windows of 100 ms show the trend (mean) and
        // the stalls (max of the fastest loop, which looks most often).
        var age = SVGChart(title: "Age of the sample pulled each frame, per 100 ms", xLabel: "seconds into the game loops", yLabel: "age, ms")
        for (i, run) in runs.enumerated() {
            let tag = runs.count > 1 ? "[\(i + 1)] " : ""
            for (frame, points) in zip(run.report.frames, run.series.ageOverTime) {
                age.series.append(.init(name: "\(tag)\(Figure.fixed(frame.frameRate, 0)) Hz mean",
                                        points: windows(points, width: 0.1, of: { $0.reduce(0, +) / Double($0.count) })))
            }
            if let fastest = zip(run.report.frames, run.series.ageOverTime).max(by: { $0.0.frameRate < $1.0.frameRate }) {
                age.series.append(.init(name: "\(tag)\(Figure.fixed(fastest.0.frameRate, 0)) Hz max",
                                        points: windows(fastest.1, width: 0.1, of: { $0.max() ?? 0 })))
            }
        }
        return [("source-intervals.svg", intervals), ("source-age.svg", age)]
    }

    /// (window centre s, f(ages in ms)) over consecutive windows of `width` seconds.
    static func windows(_ points: [(Double, Double)], width: Double, of f: ([Double]) -> Double) -> [(Double, Double)] {
        var result: [(Double, Double)] = []
        var index = 0
        while index < points.count {
            let window = (points[index].0 / width).rounded(.down)
            var ages: [Double] = []
            while index < points.count, (points[index].0 / width).rounded(.down) == window {
                ages.append(points[index].1 / 1000)
                index += 1
            }
            result.append(((window + 0.5) * width, f(ages)))
        }
        return result
    }

    /// Equal-width bins from 0 to `limit` (values above go to the last), as percent of values.
    static func bins(_ values: [Double], upTo limit: Double, count: Int = 60) -> [(Double, Double)] {
        guard !values.isEmpty, limit > 0 else { return [] }
        let width = limit / Double(count)
        var counts = [Int](repeating: 0, count: count)
        for v in values { counts[Swift.max(0, Swift.min(count - 1, Int(v / width)))] += 1 }
        var points = counts.enumerated().map { (Double($0.offset) * width, Double($0.element) / Double(values.count) * 100) }
        points.append((limit, 0))
        return points
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[Swift.min(sorted.count - 1, Int(Double(sorted.count - 1) * p / 100))]
    }
}
