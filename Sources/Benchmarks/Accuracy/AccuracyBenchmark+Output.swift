import Motion
import MotionEvaluation

extension AccuracyBenchmark.Report {
    public var text: String {
        var parts: [String] = ["Data: \(data)"]
        if !broad.isEmpty {
            parts.append("BROAD at \(variant). BROAD's metric, RMS degrees over the movement phases (9D: x-magnetic-north-z-vertical; 6D: x-arbitrary-z-vertical)")
            parts += broadTables
            if let table = leaveOutTable { parts.append(table) }
            if let table = magnetCurveTable { parts.append(table) }
        }
        if !traces.isEmpty {
            var t = TextTable(["Core Motion recording", "samples", "fusion median", "fusion p95", "accel-only median",
                               "accel-only p95", "VQF 6D median (quoted)", "VQF 6D p95 (quoted)"])
            func o(_ v: Double?) -> String { v.map { Figure.fixed($0, 2) } ?? "—" }
            for r in traces {
                t.append([r.file, Figure.count(r.samples), o(r.fusionMedian), o(r.fusionP95), o(r.accelerometerOnlyMedian),
                          o(r.accelerometerOnlyP95), o(r.vqf6DMedian), o(r.vqf6DP95)])
            }
            parts.append("Gravity direction against Core Motion's own, degrees, after the first 2 s (VQF quoted from ../shared/data/traces/README.md)\n" + t.rendered)
        }
        if !skipped.isEmpty { parts.append("Skipped: " + skipped.joined(separator: "; ")) }
        if !targets.isEmpty { parts.append(targets.map(\.line).joined(separator: "\n")) }
        return parts.joined(separator: "\n\n")
    }
}

extension AccuracyBenchmark.Report {
    private func o(_ v: Double?) -> String { v.map { Figure.fixed($0, 2) } ?? "—" }

    /// Tiltkit per trial beside VQF, like for like (both given BROAD's gyro delay; the defaults' ratios
    /// beside); every measured peer per trial; the means beside the quoted figures.
    var broadTables: [String] {
        var parts: [String] = []
        let rows = broad + (broadMean.map { [$0] } ?? [])
        func ratio(_ ours: Double, _ theirs: Double?) -> String { theirs.map { Figure.ratio(ours / $0) } ?? "—" }
        var t = TextTable(["BROAD trial", "9D total", "9D heading", "9D incl", "6D incl", "6D total_hc", "accel-only incl",
                           "VQF 9D total", "VQF incl", "VQF 6D total_hc", "9D × VQF", "6D × VQF",
                           "defaults: 9D × VQF", "6D × VQF"])
        for r in rows {
            t.append([r.trial, o(r.total9D), o(r.heading9D), o(r.inclination9D), o(r.inclination6D),
                      o(r.totalHeadingCorrected6D), o(r.inclinationAccelerometerOnly), o(r.vqfDelayedTotal9D),
                      o(r.peers.first { $0.filter == "VQF 6D + gyro delay" }?.inclination),
                      o(r.vqfDelayedTotalHeadingCorrected6D), ratio(r.total9D, r.vqfDelayedTotal9D),
                      ratio(r.totalHeadingCorrected6D, r.vqfDelayedTotalHeadingCorrected6D),
                      ratio(r.total9DWithoutGyroDelay, r.vqfTotal9D),
                      ratio(r.totalHeadingCorrected6DWithoutGyroDelay, r.vqfTotalHeadingCorrected6D)])
        }
        parts.append("Tiltkit and VQF both given BROAD's gyro delay; \"defaults\": neither given it\n" + t.rendered)
        let delays = broad.compactMap(\.gyroDelay).map { $0 * 1000 }
        if let low = delays.min(), let high = delays.max() {
            parts.append("Gyro delay against the reference, measured in this run: \(Figure.fixed(low, 2))–\(Figure.fixed(high, 2)) ms "
                         + "per trial; the fusion is given BROAD's \(Figure.fixed(BroadTrial.gyroDelay * 1000, 1)) ms as a device setting "
                         + "(AHRSSettings.gyroDelay), and \"+ gyro delay\" rows give VQF's output the same.")
        }
        let crossAxis = broad.compactMap(\.gyroCrossAxis), scales = broad.compactMap(\.gyroScale)
        if !crossAxis.isEmpty {
            func range(_ values: [Double]) -> String {
                "\(Figure.fixed((values.min() ?? 0) * 100, 2)) to \(Figure.fixed((values.max() ?? 0) * 100, 2)) %"
            }
            let largest = crossAxis.map { $0.map(abs).max() ?? 0 }.sorted()
            parts.append("Gyro against the reference (strapdown fit, GyroErrorFit), measured in this run: scale error "
                         + range(scales.flatMap { $0 }) + ", cross-axis sensitivity "
                         + range(crossAxis.flatMap { $0 }) + " (largest per trial, median "
                         + "\(Figure.fixed(largest[largest.count / 2] * 100, 2)) %); the fusion allows for "
                         + "\(Figure.fixed(BroadTrial.fusionSettings.gyroCrossAxisUncertainty * 100, 1)) % "
                         + "(AHRSSettings.gyroCrossAxisUncertainty) and estimates the scale.")
        }
        let nine = peerMeans.filter { $0.axes == 9 }.map(\.filter), six = peerMeans.filter { $0.axes == 6 }.map(\.filter)
        if !peerMeans.isEmpty {
            var p = TextTable(["per trial, measured in this run", "Tiltkit 9D + gyro delay", "Tiltkit 9D"] + nine.map { "\($0) total" }
                              + ["Tiltkit 6D + gyro delay", "Tiltkit 6D"] + six.map { "\($0) total_hc" })
            for r in rows {
                func peer(_ name: String) -> PeerRow? { r.peers.first { $0.filter == name } }
                p.append([r.trial, o(r.total9D), o(r.total9DWithoutGyroDelay)] + nine.map { o(peer($0)?.total) }
                         + [o(r.totalHeadingCorrected6D), o(r.totalHeadingCorrected6DWithoutGyroDelay)]
                         + six.map { o(peer($0)?.totalHeadingCorrected) })
            }
            parts.append("9D total and 6D heading-corrected total of every peer, per trial (Tiltkit given BROAD's gyro delay, "
                         + "and at its defaults)\n" + p.rendered)
        }
        if let m = broadMean {
            var peers = TextTable(["filter (mean of \(broad.count) trials)", "total (9D)", "inclination", "total_hc", "ns/sample", "source"])
            peers.append(["Tiltkit 9D", o(m.total9D), o(m.inclination9D), o(m.totalHeadingCorrected9D), "bench fusion", "this run"])
            peers.append(["Tiltkit 6D", "—", o(m.inclination6D), o(m.totalHeadingCorrected6D), "bench fusion", "this run"])
            peers.append(["Tiltkit 9D, no gyro scale estimate", o(m.total9DWithoutScale), "—", "—", "", "this run"])
            peers.append(["Tiltkit 6D, no gyro scale estimate", "—", o(m.inclination6DWithoutScale),
                          o(m.totalHeadingCorrected6DWithoutScale), "", "this run"])
            peers.append(["Tiltkit 9D, no gyro delay (defaults)", o(m.total9DWithoutGyroDelay), "—", "—", "", "this run"])
            peers.append(["Tiltkit 6D, no gyro delay (defaults)", "—", "—", o(m.totalHeadingCorrected6DWithoutGyroDelay), "", "this run"])
            peers.append(["Tiltkit 9D, no cross-axis allowance", o(m.total9DWithoutCrossAxis), "—", "—", "", "this run"])
            peers.append(["Tiltkit 6D, no cross-axis allowance", "—", o(m.inclination6DWithoutCrossAxis),
                          o(m.totalHeadingCorrected6DWithoutCrossAxis), "", "this run"])
            for p in peerMeans {
                peers.append([p.filter, o(p.total), o(p.inclination), o(p.totalHeadingCorrected),
                              Figure.fixed(p.nanosecondsPerSample, 0), "this run (\(p.timing))"])
            }
            for q in BroadPeers.averages {
                let measured = peerMeans.contains { $0.filter.lowercased() == q.filter.lowercased() }
                peers.append([q.filter, measured ? "" : o(q.total), measured ? "" : o(q.inclination),
                              measured ? "" : o(q.totalHeadingCorrected), Figure.fixed(q.nanosecondsPerSample, 0),
                              "quoted: BROAD README, native C/C++ -O2, all 10 trials at 285.7 Hz"])
            }
            parts.append("Beside the peers\n" + peers.rendered)
        }
        if !peerPackages.isEmpty {
            parts.append("Peer packages: " + peerPackages.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                         + ". VQF gets the nominal period (its batch call takes one); the others each sample's time step.")
        }
        if !peersMissing.isEmpty {
            parts.append("Peers not run: " + peersMissing.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; "))
        }
        return parts
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
            var chart = SVGChart(title: "BROAD per trial: Tiltkit against VQF, both given the gyro delay (degrees RMS)", xLabel: "trial number",
                                 yLabel: "degrees")
            func points(_ f: (BroadRow) -> Double?) -> [(Double, Double)] {
                report.broad.compactMap { r in
                    guard let n = Double(r.trial.prefix { $0.isNumber }), let v = f(r) else { return nil }
                    return (n, v)
                }
            }
            chart.series.append(.init(name: "Tiltkit 9D total", points: points { $0.total9D }))
            chart.series.append(.init(name: "VQF 9D total", points: points { $0.vqfDelayedTotal9D }))
            chart.series.append(.init(name: "Tiltkit 6D total_hc", points: points { $0.totalHeadingCorrected6D }))
            chart.series.append(.init(name: "VQF 6D total_hc", points: points { $0.vqfDelayedTotalHeadingCorrected6D }))
            out.append(("accuracy-broad-per-trial.svg", chart))
        }
        return out
    }
}
