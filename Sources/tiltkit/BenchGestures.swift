import ArgumentParser
import Benchmarks
import CartGame
import Foundation
import MotionSources

extension Bench {
    /// `tiltkit bench gestures`: the cart game's jump and duck against the labelled gesture set.
    struct Gestures: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Cart game gestures against labels from independent truth: precision, recall, false fires per minute, latency.",
            discussion: """
            Replays every recording of Assets/gestures/labels.csv (rebuilt by scripts/gesture-labels.py \
            from BROAD's optical truth, x-io's known events and MotionSense's walks) through the game's \
            headless path and scores the fired jumps and ducks. Recordings absent from --data are skipped \
            and listed.
            """)

        @Option(help: ArgumentHelp("The shared data folder the labels' paths are relative to. Default: ../shared/data beside the repository.", valueName: "DIR"))
        var data: String?

        @Option(help: ArgumentHelp("Labels CSV. Default: Assets/gestures/labels.csv.", valueName: "FILE"))
        var labels: String?

        @Flag(help: "Print machine-readable JSON instead of the table.")
        var json = false

        @Flag(help: "Also list every false fire and missed label, then every fire no label judges.")
        var list = false

        @Option(help: ArgumentHelp("Write SVG charts of the jump detector's signal against the labels into this folder.", valueName: "DIR"))
        var plot: String?

        @Option(help: ArgumentHelp("Also score the set with both detectors' thresholds scaled by each factor (comma-separated, e.g. 0.6,0.8,1,1.2): the trade between latency and precision.", valueName: "FACTORS"))
        var thresholds: String?

        func run() throws {
            let factors = try thresholds.map { text in
                try text.split(separator: ",").map { item -> Double in
                    guard let factor = Double(item.trimmingCharacters(in: .whitespaces)), factor.isFinite, factor > 0 else {
                        throw ValidationError("--thresholds: '\(item)' is not a positive factor (e.g. 0.8,1,1.2)")
                    }
                    return factor
                }
            }
            guard let labelsURL = labels.map({ URL(fileURLWithPath: $0) }) ?? AssetLocator.locate("gestures/labels.csv") else {
                throw ValidationError("Assets/gestures/labels.csv not found; pass --labels FILE")
            }
            guard FileManager.default.fileExists(atPath: labelsURL.path) else { throw ValidationError("--labels \(labelsURL.path): no such file") }
            let folder: URL
            if let data {
                guard FileManager.default.fileExists(atPath: data) else { throw ValidationError("--data \(data): no such folder") }
                folder = URL(fileURLWithPath: data)
            } else {
                folder = try BenchData.locateDefault().root
            }
            let parsed = try GestureLabel.parse(try String(contentsOf: labelsURL, encoding: .utf8), source: labelsURL.path)
            let bench = GestureBenchmark(labels: parsed, data: folder)
            let bar = ProgressBar(total: bench.recordingNames.count, label: "gestures")
            var report = try bench.run(keepLevels: plot != nil) { bar.advance($0) }
            bar.finish()
            if let factors {
                let curveBar = ProgressBar(total: bench.recordingNames.count * factors.count, label: "thresholds")
                report.curve = try GestureThresholdCurve.measure(bench, factors: factors) { curveBar.advance($0) }
                curveBar.finish()
            }
            guard !report.recordings.isEmpty else { throw ValidationError("no labelled recording found under \(folder.path)") }
            let output = BenchOutput(json: json, plotDirectory: plot.map { URL(fileURLWithPath: $0) })
            try output.emit(bench: "gestures", quick: false, report: report,
                            text: report.text + (report.curve.map { "\n\n" + $0.text } ?? "") + (list ? "\n\n" + (report.score.mistakes + report.score.unjudgedFires).joined(separator: "\n") : ""))
            try output.write(charts: bench.charts(report) + (report.curve.map { [(file: "gestures-threshold-curve.svg", chart: $0.chart)] } ?? []))
        }
    }
}
