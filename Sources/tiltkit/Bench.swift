import ArgumentParser
import Benchmarks
import Foundation
import Motion

/// `tiltkit bench …`: how cheap and fresh a pulled motion sample is, what fusion costs, how
/// accurate it is, and how long frames take. Figures come with a baseline from the same run.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Benchmarks: pull cost and sample age, fusion cost, latency, frame time, accuracy, the mapper's path, step counts, activity calls.",
        discussion: """
        Build with `swift build -c release` first: debug figures mean nothing. Every bench prints an \
        aligned table (a progress bar on stderr while it runs, on a terminal), or JSON with --json; \
        --plot DIR writes SVG charts; --quick is a brief run that proves the bench works (CI).

        Examples:
          tiltkit bench pull --plot plots/
          tiltkit bench latency --source hidraw:/dev/hidraw3 --duration 20 --plot plots/
          tiltkit bench pull --source evdev:/dev/input/event17 --compare-paths
          tiltkit bench latency --source hidraw:/dev/hidraw3 --source hidraw:/dev/hidraw5   # two pads: USB, Bluetooth
          tiltkit bench fusion --json
          tiltkit bench accuracy --data ../shared/data/broad
          tiltkit bench accuracy --data ../shared/data/broad --rate 100 --jitter 0.2 --peers vqf
          tiltkit bench accuracy --data ../shared/data/broad --peers vqf --hard-iron 0.1,0.3,1,2,5 --soft-iron
          tiltkit bench gestures --data ../shared/data
          tiltkit bench on-foot ../shared/data/traces/motionsense
          tiltkit bench map --source hidraw:/dev/hidraw3 --duration 20   # turn the pad meanwhile
          tiltkit bench pedometer Assets/traces/oxford-steps/*.csv
          tiltkit bench activity ../shared/data/traces/motionsense --joined
        """,
        subcommands: [Pull.self, Fusion.self, Latency.self, Frame.self, Accuracy.self, Gestures.self, OnFoot.self, MapPath.self, Pedometer.self,
                      Activity.self])
}

/// Flags every bench takes.
struct BenchCommonOptions: ParsableArguments {
    @Flag(help: "A brief run that proves the bench works (CI); figures are rough.")
    var quick = false

    @Flag(help: "Print machine-readable JSON instead of the table.")
    var json = false

    @Option(help: ArgumentHelp("Write SVG charts into this folder.", valueName: "DIR"))
    var plot: String?

    var output: BenchOutput {
        BenchOutput(json: json, plotDirectory: plot.map { URL(fileURLWithPath: $0) })
    }
}

/// `--data DIR` for the benches that read recordings.
struct BenchDataOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Folder of recordings (BROAD trials and/or Core Motion CSVs). Default: ../shared/data beside the repository, else Assets/traces.", valueName: "DIR"))
    var data: String?

    func resolve() throws -> BenchData {
        guard let data else { return try BenchData.locateDefault() }
        guard FileManager.default.fileExists(atPath: data) else { throw ValidationError("--data \(data): no such folder") }
        return BenchData(root: URL(fileURLWithPath: data))
    }
}

extension Bench {
    struct Pull: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pull cost, sample age and torn reads of the latest-value slot under a producer thread; or, with --source, on a live source.")

        @OptionGroup var common: BenchCommonOptions
        @OptionGroup var data: BenchDataOptions
        @OptionGroup var live: BenchSourceOptions

        func run() throws {
            if !live.source.isEmpty { return try live.run(bench: "pull", pullCost: true, common: common) }
            let library = try data.resolve()
            let recording = try library.pullRecording()
            let work = try ProducerWork.fusion(of: recording.samples, name: recording.name)
            let settings = common.quick ? PullBenchmark.Settings.quick : PullBenchmark.Settings()
            let bar = ProgressBar(total: 1 + settings.rates.count * 4, label: "pull")
            var (report, histograms) = try PullBenchmark(settings: settings, work: work)
                .run(latest: { LatestValueSlot() }, progress: { bar.advance($0) })
            bar.show("MotionManager.latestDeviceMotion")
            report.managerPull = ManagerPullProbe.run(recording, speed: 10, seconds: settings.tightLoopSeconds)
            bar.finish()
            try common.output.emit(bench: "pull", quick: common.quick, report: report, text: report.text)
            try common.output.write(charts: PullBenchmark.charts(report, histograms))
        }
    }

    struct Fusion: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fusion cost per sample (accelerometer-only, 6-axis, 9-axis) and push delivery cost, against a plain loop.")

        @OptionGroup var common: BenchCommonOptions
        @OptionGroup var data: BenchDataOptions

        func validate() throws {
            // Its figures are a table: asked for charts, it would write none and say nothing.
            if common.plot != nil { throw ValidationError("bench fusion draws no charts: --plot is for pull, latency --source, accuracy, frame and gestures") }
        }

        func run() throws {
            let library = try data.resolve()
            let settings = common.quick ? FusionBenchmark.Settings.quick : FusionBenchmark.Settings()
            let bar = ProgressBar(total: 1, label: "fusion")
            let report = try FusionBenchmark(settings: settings, data: library).run { step, fraction in bar.set(fraction, step) }
            bar.finish()
            try common.output.emit(bench: "fusion", quick: common.quick, report: report, text: report.text)
        }
    }

    struct Accuracy: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fusion error per file and in total: BROAD's metric beside its peers, and gravity agreement with Core Motion.")

        @OptionGroup var common: BenchCommonOptions
        @OptionGroup var data: BenchDataOptions

        @Option(help: ArgumentHelp("Resample BROAD to this rate, Hz (below its own 285.7 Hz; e.g. 50, 100, 250).", valueName: "HZ"))
        var rate: Double?

        @Option(help: ArgumentHelp("Jitter BROAD's sample intervals by ± this fraction of the period (0.2: ±20 %).", valueName: "FRACTION"))
        var jitter: Double = 0

        @Option(help: ArgumentHelp("Peers to run from their PyPI packages (scripts/install-peers.sh): a comma list of vqf, imufusion, ahrs, or none. Default: all (vqf only with --quick); ahrs's pure-Python loops take a few minutes.", valueName: "LIST"))
        var peers: String?

        @Flag(help: "Also check the fusion's settings by leaving each trial out (chosen on the others, scored on it).")
        var leaveOut = false

        @Option(help: ArgumentHelp("Also run the magnet curve: a hard-iron offset of each of these multiples of the trial's mean field strength added to every BROAD trial's magnetometer in the sensor frame along six directions (e.g. 0.1,0.3,1,2,5), Tiltkit and VQF on the same altered data; a trial's figure is the RMS over the directions.", valueName: "LIST"))
        var hardIron: String?

        @Flag(help: "Also run the magnet curve's soft-iron case (a fixed symmetric matrix, MagnetometerDistortion.softIronMatrix).")
        var softIron = false

        func validate() throws {
            if let rate, !(rate > 0 && rate <= 2000.0 / 7) { throw ValidationError("--rate \(rate): give a rate above 0 and at most BROAD's 285.7 Hz") }
            if !(0..<1).contains(jitter) { throw ValidationError("--jitter \(jitter): give a fraction from 0 to below 1") }
            _ = try hardIronStrengths()
        }

        func hardIronStrengths() throws -> [Double] {
            guard let hardIron else { return [] }
            let strengths = try hardIron.split(separator: ",").map { part in
                guard let v = Double(part.trimmingCharacters(in: .whitespaces)), v.isFinite, v > 0 else {
                    throw ValidationError("--hard-iron \(hardIron): expected a comma list of positive multiples of |m| (e.g. 0.1,0.3,1,2,5), found \"\(part)\"")
                }
                return v
            }
            // a strength named twice is one row, run once
            return strengths.enumerated().filter { i, v in !strengths[..<i].contains(v) }.map(\.element)
        }

        func run() throws {
            let library = try data.resolve()
            var settings = common.quick ? AccuracyBenchmark.Settings.quick : AccuracyBenchmark.Settings()
            settings.rate = rate
            settings.jitter = jitter
            settings.leaveOut = leaveOut
            let strengths = try hardIronStrengths()
            if !strengths.isEmpty || softIron {
                settings.magnetDistortions = AccuracyBenchmark.magnetDistortions(hardIron: strengths, softIron: softIron)
            }
            let names = (peers ?? (common.quick ? "vqf" : "vqf,imufusion,ahrs")).split(separator: ",").map(String.init)
            if names != ["none"] {
                guard let script = PeerRunner.locateScript() else {
                    throw ValidationError("--peers: scripts/broad-peers.py not found from here; run from the repository or pass --peers none")
                }
                settings.peers = PeerRunner(script: script, peers: names)
            }
            let bar = ProgressBar(total: 1, label: "accuracy")
            let (report, series) = try AccuracyBenchmark(settings: settings, data: library)
                .run(keepSeries: common.plot != nil) { step, fraction in bar.set(fraction, step) }
            bar.finish()
            try common.output.emit(bench: "accuracy", quick: common.quick, report: report, text: report.text)
            try common.output.write(charts: AccuracyBenchmark.charts(report, series))
        }
    }

    struct Latency: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sample arrival → visible to a pull → end of the frame that shows it (teapot, headless); gesture → game tick (cart, live). With --source: report intervals, drops, arrival → visible and sample age on a live source.")

        @OptionGroup var common: BenchCommonOptions
        @OptionGroup var data: BenchDataOptions
        @OptionGroup var live: BenchSourceOptions

        func validate() throws {
            if common.plot != nil && live.source.isEmpty {
                throw ValidationError("bench latency draws its charts from a live source: --plot needs --source")
            }
        }

        func run() throws {
            if !live.source.isEmpty { return try live.run(bench: "latency", pullCost: false, common: common) }
            let recording = try data.resolve().pullRecording()
            let settings = common.quick ? LatencyBenchmark.Settings.quick : LatencyBenchmark.Settings()
            let bar = ProgressBar(total: 4, label: "latency")
            let report = try LatencyBenchmark(settings: settings, recording: recording).run { bar.advance($0) }
            bar.finish()
            try common.output.emit(bench: "latency", quick: common.quick, report: report, text: report.text)
        }
    }

    struct Frame: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Frame-time distribution of the teapot and the cart game, headless at 1280×720.")

        @OptionGroup var common: BenchCommonOptions
        @OptionGroup var data: BenchDataOptions

        func run() throws {
            let recording = try data.resolve().pullRecording()
            let settings = common.quick ? FrameBenchmark.Settings.quick : FrameBenchmark.Settings()
            let bench = FrameBenchmark(settings: settings, recording: recording)
            var results: [FrameBenchmark.SceneResult] = []
            var frameTimes: [String: [Double]] = [:]
            var skipped: [String] = []
            var renderer = ""
            let bar = ProgressBar(total: 2, label: "frame")
            for scene in [FrameBenchmark.teapot, FrameBenchmark.cartGame] {
                bar.show(scene.name)
                do {
                    let (r, gl, times) = try bench.run([scene])
                    results += r
                    renderer = gl
                    frameTimes.merge(times) { a, _ in a }
                } catch {
                    skipped.append("\(scene.name): \(error)")
                }
                bar.advance()
            }
            bar.finish()
            let report = FrameReport(renderer: renderer, scenes: results, skipped: skipped)
            try common.output.emit(bench: "frame", quick: common.quick, report: report, text: report.text)
            try common.output.write(charts: FrameBenchmark.charts(report, timings: frameTimes))
            if results.isEmpty { throw ExitCode(3) }
        }
    }
}
