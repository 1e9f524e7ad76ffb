import Histogram

extension PullBenchmark.Report {
    /// The tables `bench pull` prints.
    public var text: String {
        var cost = TextTable(["slot", "producer", "consumer", "p50", "p90", "p99", "p99.9", "max ns",
                              "reads", "torn", "out of order", "allocs"])
        for s in scenarios {
            cost.append([s.variant, s.producerRate, s.consumer.rawValue,
                         Figure.fixed(s.pullCost.p50), Figure.fixed(s.pullCost.p90), Figure.fixed(s.pullCost.p99),
                         Figure.fixed(s.pullCost.p999), Figure.fixed(s.pullCost.max, 0),
                         Figure.count(s.reads), String(s.tornReads), String(s.outOfOrderReads), String(s.allocations)])
        }
        var age = TextTable(["slot", "producer", "consumer", "published Hz", "age mean µs", "ideal µs",
                             "mean/ideal", "age p50 µs", "age p99 µs", "fusion ns", "publish p99.9 ns"])
        for s in scenarios {
            guard let a = s.age else { continue }
            age.append([s.variant, s.producerRate, s.consumer.rawValue, Figure.fixed(s.publishedHertz, 0),
                        Figure.fixed(a.mean / 1000, 2), s.idealMeanAge.map { Figure.fixed($0 / 1000, 2) } ?? "",
                        s.idealMeanAge.map { Figure.ratio(a.mean / $0) } ?? "",
                        Figure.fixed(a.p50 / 1000, 2), Figure.fixed(a.p99 / 1000, 2),
                        s.producerWork.map { Figure.fixed($0) } ?? "", s.producerPublishP999.map { Figure.fixed($0) } ?? ""])
        }
        var ratio = TextTable(["slot", "producer", "p50 / floor", "p99.9 / floor"])
        for r in ratios {
            ratio.append([r.variant, r.producerRate, Figure.ratio(r.p50OverFloor), Figure.ratio(r.p999OverFloor)])
        }
        var game = ""
        if let m = managerPull, let floor = scenarios.first?.pullCost.p50, floor > 0 {
            game = """


                The game's pull, MotionManager.latestDeviceMotion (\(m.source)): p50 \(Figure.fixed(m.cost.p50)) ns \
                (\(Figure.ratio(m.cost.p50 / floor)) the floor), p99 \(Figure.fixed(m.cost.p99)) ns, p99.9 \(Figure.fixed(m.cost.p999)) ns, \
                allocations \(m.allocations)
                """
        }
        return """
            Producer: \(producerWork)
            Method: \(method)
            Clock read: \(Figure.fixed(clockReadCost)) ns (median, this run)

            Pull cost, ns per pull
            \(cost.rendered)

            Age of the pulled sample (now − arrival); ideal mean = half the sample period + fusion
            \(age.rendered)

            Ratios to the plain-copy floor (tight loop)
            \(ratio.rendered)\(game)

            \(targets.map { $0.line }.joined(separator: "\n"))
            """
    }

    /// The pull's targets (near a plain copy's cost, no allocation, none torn), checked against this run's figures.
    func evaluateTargets() -> [TargetCheck] {
        var checks: [TargetCheck] = []
        let latest = LatestValueSlot.variantName
        if let r = ratios.first(where: { $0.variant == latest && $0.producerRate == "1 kHz" }) {
            checks.append(TargetCheck(name: "pull p50 within 3× of the plain copy (1 kHz)", measured: Figure.ratio(r.p50OverFloor), met: r.p50OverFloor <= 3))
        }
        if let s = scenarios.first(where: { $0.variant == latest && $0.producerRate == "1 kHz" && $0.consumer == .tightLoop }) {
            checks.append(TargetCheck(name: "pull p99.9 under 1 µs (1 kHz)", measured: Figure.fixed(s.pullCost.p999) + " ns", met: s.pullCost.p999 < 1000))
        }
        let mine = scenarios.filter { $0.variant == latest }
        let allocations = mine.reduce(0) { $0 + $1.allocations }
        checks.append(AllocationCount.isCounting
            ? TargetCheck(name: "zero allocations in the pull path", measured: "\(allocations)", met: allocations == 0)
            : TargetCheck(name: "zero allocations in the pull path", measured: "not counted (build with TILTKIT_ALLOCATION_COUNTER=1)", met: false))
        let torn = mine.reduce(0) { $0 + $1.tornReads + $1.outOfOrderReads }
        checks.append(TargetCheck(name: "zero torn or out-of-order reads", measured: "\(torn)", met: torn == 0))
        if let s = mine.first(where: { $0.producerRate == "1 kHz" && $0.consumer == .frames }), let a = s.age, let ideal = s.idealMeanAge {
            let off = abs(a.mean / ideal - 1)
            checks.append(TargetCheck(name: "age mean at 60 Hz within 10% of ideal (1 kHz)",
                                      measured: "\(Figure.fixed(a.mean / 1000, 1)) µs vs \(Figure.fixed(ideal / 1000, 1)) µs (\(Figure.fixed(off * 100, 1))% off)",
                                      met: off <= 0.10))
        }
        return checks
    }
}

/// One demand on a figure (what it must reach, and why) with this run's figure and whether it was met.
public struct TargetCheck: Codable, Sendable, Hashable {
    public var name: String
    public var measured: String
    public var met: Bool

    public var line: String { "target: \(name): \(measured) — \(met ? "met" : "NOT met")" }
}

extension PullBenchmark {
    /// Histograms of pull cost (tight loop, 1 kHz producer) and of sample age at frame pulls.
    public static func charts(_ report: Report, _ histograms: Histograms) -> [(file: String, chart: SVGChart)] {
        var cost = SVGChart(title: "Pull cost, tight loop (producer 1 kHz; floor has none)",
                            xLabel: "ns per pull (log scale)", yLabel: "% of batches", xScale: .log10)
        for h in histograms where h.name.hasSuffix("tight loop") && (h.name.contains("1 kHz") || h.age == nil) {
            cost.series.append(.init(name: h.name.replacingOccurrences(of: " · tight loop", with: ""),
                                     points: SVGChart.histogramPoints(h.cost, unitsPerNanosecond: 1000), style: .steps))
        }
        var age = SVGChart(title: "Age of the sample pulled each frame (59.94 Hz frames)",
                           xLabel: "age, µs", yLabel: "% of frames")
        for h in histograms where h.name.hasPrefix(LatestValueSlot.variantName) && h.name.hasSuffix("per frame") {
            guard let ageHistogram = h.age, !h.name.contains("max") else { continue }
            age.series.append(.init(name: h.name.replacingOccurrences(of: " · per frame", with: ""),
                                    points: linearBins(ageHistogram, toMicroseconds: 1e-3, bins: 40), style: .steps))
        }
        for s in report.scenarios where s.variant == LatestValueSlot.variantName && s.consumer == .frames && s.producerRate != "max" {
            if let ideal = s.idealMeanAge { age.markers.append(.init(x: ideal / 1000, label: "ideal mean \(s.producerRate)")) }
        }
        return [("pull-cost.svg", cost), ("pull-age.svg", age)]
    }

    /// Equal-width bins from 0 to the histogram's max, as percent of values.
    static func linearBins(_ h: Histogram<UInt64>, toMicroseconds scale: Double, bins: Int) -> [(Double, Double)] {
        guard h.totalCount > 0 else { return [] }
        let width = Swift.max(1, (h.max + UInt64(bins) - 1) / UInt64(bins))
        var counts = [UInt64](repeating: 0, count: bins)
        // Each recorded value lands in exactly one bin, so the bins add up to every value.
        for recorded in h.recordedValues() {
            counts[Swift.min(bins - 1, Int(recorded.value / width))] += recorded.countAddedInThisIterationStep
        }
        var points = counts.enumerated().map { (Double(UInt64($0.offset) * width) * scale, Double($0.element) / Double(h.totalCount) * 100) }
        points.append((Double(UInt64(bins) * width) * scale, 0))
        return points
    }
}
