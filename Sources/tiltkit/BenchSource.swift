import ArgumentParser
import Benchmarks
import Foundation
import Motion
import MotionDevices
import MotionSDL
import MotionSources

/// `--source SPEC` and its settings for `bench latency` and `bench pull`: the bench then runs on
/// that live source (or a trace replayed in real time) instead of the bundled recording.
struct BenchSourceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Measure this source instead of the bundled replay: \(SourceSpec.kinds.joined(separator: ", ")), or a trace file (replayed in real time, looping). Repeat for several side by side (a pad over USB and over Bluetooth).", valueName: "SPEC"))
    var source: [String] = []

    @Option(help: ArgumentHelp("Seconds to measure each source (with --source).", valueName: "S"))
    var duration: Double = 10

    @Option(name: .customLong("frame-rate"), help: ArgumentHelp("A game loop's frame rate, Hz; repeat for several (default 60, 120, 144; with --source).", valueName: "HZ"))
    var frameRates: [Double] = []

    @Option(name: .customLong("update-interval"), help: ArgumentHelp("deviceMotionUpdateInterval, s: sets an IIO sensor's rate (the nearest it offers at or above), thins a pad's (with --source).", valueName: "S"))
    var updateInterval: Double = 0

    @OptionGroup var gyro: GyroCalibrationOptions

    @Flag(name: .customLong("compare-paths"), help: "Also measure the same device by its other paths (hidraw, evdev, SDL; IIO sysfs and buffer), one after the other, side by side.")
    var comparePaths = false

    func validate() throws {
        guard !source.isEmpty else {
            if comparePaths { throw ValidationError("--compare-paths needs --source") }
            return
        }
        if !(duration > 0 && duration <= 3600) { throw ValidationError("--duration \(duration): give seconds above 0, at most 3600") }
        for rate in frameRates where !(rate > 0 && rate <= 1000) { throw ValidationError("--frame-rate \(rate): give Hz above 0, at most 1000") }
        if !(updateInterval >= 0 && updateInterval.isFinite) { throw ValidationError("--update-interval \(updateInterval): give seconds, 0 or more") }
    }

    /// Runs the live bench on `--source` (and its other paths) and prints it as `bench`.
    func run(bench: String, pullCost: Bool, common: BenchCommonOptions) throws {
        var settings = LiveSourceBenchmark.Settings()
        settings.duration = common.quick ? Swift.min(duration, 1.5) : duration
        if !frameRates.isEmpty { settings.frameRates = frameRates }
        settings.updateInterval = updateInterval
        settings.measurePullCost = pullCost
        // (spec, given): a path found by --compare-paths may fail without failing the command.
        var specs: [(String, given: Bool)] = []
        let found = comparePaths ? MotionDeviceDiscovery().scan() : []
        for given in source {
            specs.append((given, true))
            guard comparePaths else { continue }
            specs += MotionDeviceDiscovery.paths(sameDeviceAs: given, in: found).dropFirst().map { ($0, false) }
            if let parsed = try? SourceSpec(parsing: given), case .device(let d) = parsed, d.isPad { specs.append(("sdl", false)) }
        }
        let bar = ProgressBar(total: 1000, label: bench)
        var runs: [(report: LiveSourceReport, series: LiveSourceSeries)] = []
        var skipped: [String] = []
        for (index, (spec, given)) in specs.enumerated() {
            do {
                let made = try SourceSpec(parsing: spec).makeSource(SourceSpec.Options(loop: true, gyroCalibration: gyro.choice)) { warnings in
                    FileHandle.standardError.write(Data("\(spec): \(warnings.count) trace lines passed over\n".utf8))
                }
                let bench = LiveSourceBenchmark(settings: settings, clock: Self.sampleClock(of: made))
                let pump = headlessPump(for: made)
                runs.append(try bench.run(made, path: spec, pump: pump.map { pump in { pump.wait(timeout: $0) } }) { fraction, step in
                    bar.set((Double(index) + fraction) / Double(specs.count), "\(spec): \(step)")
                })
            } catch {
                // A path asked for failing is the command's failure.
                if given {
                    bar.finish()
                    // One line, no usage text: the spec was well formed, the source failed.
                    try reportingErrors { throw BenchSourceFailure(description: "--source \(spec): \(error)") }
                }
                skipped.append("\(spec): \(error)")
            }
        }
        bar.finish()
        let report = LiveSourceComparison(reports: runs.map(\.report), skipped: skipped)
        try common.output.emit(bench: bench, quick: common.quick, report: report, text: report.text)
        try common.output.write(charts: LiveSourceCharts.charts(runs))
    }

    /// What the source's timestamps are: the pad's counter (DualShock 4, DualSense), the kernel's
    /// MSC_TIMESTAMP (evdev), an IIO buffer's stamp, trace time; or arrival (Switch over hidraw,
    /// IIO sysfs polling, SDL), where drops and repeats cannot be told from bunching.
    static func sampleClock(of source: any MotionSource) -> LiveSourceBenchmark.SampleClock {
        let inner = GyroCalibratedSource.unwrapped(source)
        switch inner {
        case let pad as HIDRawSource:
            if !pad.stampsFromPadClock {
                return .init(name: "arrival time (Nintendo reports: 3 samples spread)", fromDevice: false)
            }
            return .init(name: "the pad's counter", fromDevice: true) { pad.statistics.clock.arrivalStamped }
        case let recording as HIDRecordingSource:
            return .init(name: "the recorded pad's counter", fromDevice: true) { recording.statistics.clock.arrivalStamped }
        case is EvdevMotionSource: return .init(name: "MSC_TIMESTAMP (device µs)", fromDevice: true)
        case is IIOBufferSource: return .init(name: "the IIO buffer's timestamp", fromDevice: true)
        case is ReplaySource: return .init(name: "trace time", fromDevice: true)
        default: return .init(name: "arrival time", fromDevice: false)
        }
    }
}

extension DeviceSourceSpec {
    /// A gamepad, which SDL can also read.
    var isPad: Bool {
        switch self {
        case .hidraw, .evdev: true
        default: false
        }
    }
}

struct BenchSourceFailure: Error, CustomStringConvertible {
    var description: String
}
