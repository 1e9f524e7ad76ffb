import Motion
import MotionEvaluation

extension AccuracyBenchmark.Report {
    public var text: String {
        var parts: [String] = ["Data: \(data)"]
        if !broad.isEmpty {
            var t = TextTable(["BROAD trial", "9D total", "9D heading", "9D incl", "9D total_hc", "6D incl", "6D total_hc",
                               "accel-only incl", "VQF 9D total", "VQF incl", "VQF 6D total_hc"])
            func o(_ v: Double?) -> String { v.map { Figure.fixed($0, 2) } ?? "—" }
            for r in broad + (broadMean.map { [$0] } ?? []) {
                t.append([r.trial, o(r.total9D), o(r.heading9D), o(r.inclination9D), o(r.totalHeadingCorrected9D),
                          o(r.inclination6D), o(r.totalHeadingCorrected6D), o(r.inclinationAccelerometerOnly),
                          o(r.vqfTotal9D), o(r.vqfInclination), o(r.vqfTotalHeadingCorrected6D)])
            }
            parts.append("BROAD's metric, RMS degrees over the movement phases (9D: x-magnetic-north-z-vertical; 6D: x-arbitrary-z-vertical)\n" + t.rendered)
            if let m = broadMean {
                var peers = TextTable(["filter (mean of 10 trials)", "total (9D)", "inclination", "total_hc", "ns/sample"])
                peers.append(["Tiltkit 9D (this run)", Figure.fixed(m.total9D, 2), Figure.fixed(m.inclination9D, 2), Figure.fixed(m.totalHeadingCorrected9D, 2), "bench fusion"])
                peers.append(["Tiltkit 6D (this run)", "—", Figure.fixed(m.inclination6D, 2), Figure.fixed(m.totalHeadingCorrected6D, 2), "bench fusion"])
                peers.append(["Tiltkit 9D, no gyro scale estimate", Figure.fixed(m.total9DWithoutScale, 2), "—", "—", ""])
                peers.append(["Tiltkit 6D, no gyro scale estimate", "—", Figure.fixed(m.inclination6DWithoutScale, 2),
                              Figure.fixed(m.totalHeadingCorrected6DWithoutScale, 2), ""])
                for p in BroadPeers.averages {
                    peers.append([p.filter, p.total.map { Figure.fixed($0, 2) } ?? "—", Figure.fixed(p.inclination, 2),
                                  Figure.fixed(p.totalHeadingCorrected, 2), Figure.fixed(p.nanosecondsPerSample, 0)])
                }
                let note = broad.count == BroadPeers.vqfPerTrial.count ? "" : "\n(peer figures are over all 10 trials; this run used \(broad.count))"
                parts.append("Beside the peers (BROAD README)\n" + peers.rendered + note)
            }
        }
        if !traces.isEmpty {
            var t = TextTable(["Core Motion recording", "samples", "fusion median", "fusion p95", "accel-only median",
                               "accel-only p95", "VQF 6D median", "VQF 6D p95"])
            func o(_ v: Double?) -> String { v.map { Figure.fixed($0, 2) } ?? "—" }
            for r in traces {
                t.append([r.file, Figure.count(r.samples), o(r.fusionMedian), o(r.fusionP95), o(r.accelerometerOnlyMedian),
                          o(r.accelerometerOnlyP95), o(r.vqf6DMedian), o(r.vqf6DP95)])
            }
            parts.append("Gravity direction against Core Motion's own, degrees, after the first 2 s\n" + t.rendered)
        }
        if !skipped.isEmpty { parts.append("Skipped: " + skipped.joined(separator: "; ")) }
        if !targets.isEmpty { parts.append(targets.map(\.line).joined(separator: "\n")) }
        return parts.joined(separator: "\n\n")
    }
}

extension AccuracyBenchmark {
    /// One error-over-time chart per file, and a per-trial bar-style comparison for BROAD.
    public static func charts(_ report: Report, _ series: [Series]) -> [(file: String, chart: SVGChart)] {
        var out: [(file: String, chart: SVGChart)] = []
        for s in series {
            let title = s.kind == "broad"
                ? "\(s.file): error against optical ground truth"
                : "\(s.file): gravity angle against Core Motion"
            var chart = SVGChart(title: title, xLabel: "time, s", yLabel: "error, degrees")
            for curve in s.curves { chart.series.append(.init(name: curve.name, points: curve.points)) }
            let safe = s.file.map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" ? $0 : "-" }
            out.append(("accuracy-\(s.kind)-\(String(safe)).svg", chart))
        }
        if report.broad.count > 1 {
            var chart = SVGChart(title: "BROAD per trial: Tiltkit against VQF (degrees RMS)", xLabel: "trial number",
                                 yLabel: "degrees")
            func points(_ f: (BroadRow) -> Double?) -> [(Double, Double)] {
                report.broad.compactMap { r in
                    guard let n = Double(r.trial.prefix { $0.isNumber }), let v = f(r) else { return nil }
                    return (n, v)
                }
            }
            chart.series.append(.init(name: "Tiltkit 9D total", points: points { $0.total9D }))
            chart.series.append(.init(name: "VQF 9D total", points: points { $0.vqfTotal9D }))
            chart.series.append(.init(name: "Tiltkit 6D total_hc", points: points { $0.totalHeadingCorrected6D }))
            chart.series.append(.init(name: "VQF 6D total_hc", points: points { $0.vqfTotalHeadingCorrected6D }))
            out.append(("accuracy-broad-per-trial.svg", chart))
        }
        return out
    }
}
