import CartGame
import Demo
import Foundation

extension GestureBenchmark {
    /// One chart per recording with tip labels: the jump detector's signal (its buffer mean at each
    /// frame) against the truth's tips toward the player (drawn at the threshold) and rolls (at minus
    /// it), with a dashed line at each fired jump. `--plot DIR` writes them.
    public func charts(_ report: Report) -> [(file: String, chart: SVGChart)] {
        let threshold = controls.jump.threshold
        let tick = CartRules.standard.tickInterval
        var charts: [(file: String, chart: SVGChart)] = []
        for name in report.recordings {
            guard let trace = report.traces[name] else { continue }
            let mine = labels.filter { $0.recording == name }
            guard mine.contains(where: { $0.kind == "tip-toward" }) else { continue }
            let base = URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent
            var chart = SVGChart(title: "Jump detector against the truth: \(base)", xLabel: "time (s)", yLabel: "rad/s")
            chart.series.append(.init(name: "jump buffer mean (50 ms)",
                                      points: trace.levels.enumerated().map { (Double($0.offset) * tick, $0.element) }))
            func spans(_ kind: String, at level: Double) -> [(Double, Double)] {
                mine.filter { $0.kind == kind }.sorted { $0.start < $1.start }
                    .flatMap { [($0.start, 0), ($0.start, level), ($0.end, level), ($0.end, 0)] }
            }
            chart.series.append(.init(name: "truth: tip toward (at the threshold)", points: spans("tip-toward", at: threshold)))
            chart.series.append(.init(name: "truth: roll (at minus the threshold)", points: spans("roll", at: -threshold)))
            chart.markers = trace.fires.filter { $0.gesture == .jump }.map { .init(x: $0.t, label: "") }
            charts.append((file: "gestures-\(base).svg", chart: chart))
        }
        return charts
    }
}
