import ArgumentParser
import Benchmarks
import Foundation
import Mapper
import MapperDevices
import Motion
import MotionSources

extension Bench {
    /// `tiltkit bench map --source SPEC`: `tiltkit map`'s own path (the source, `MapperSession`
    /// stepping the `Mapper`, the virtual devices through /dev/uinput, the pad's controls read and
    /// grabbed beside it) timed per report while the pad streams. Turn the pad while it runs: a
    /// report that moves nothing writes nothing, and is timed all the same.
    struct MapPath: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "map",
            abstract: "tiltkit map's path on a live pad: a report's arrival → its events written to uinput (p50, p99, p99.9) and CPU per report; target p99 ≤ 0.5 ms.")

        @Option(help: ArgumentHelp("The pad to map: \(SourceSpec.kinds.joined(separator: ", ")).", valueName: "SPEC"))
        var source: String

        @Option(help: ArgumentHelp("Seconds to measure.", valueName: "S"))
        var duration: Double = 10

        @Option(help: ArgumentHelp("A tiltkit map profile (TOML); default: the built-in one.", valueName: "FILE"))
        var profile: String?

        @Flag(help: "Print machine-readable JSON instead of the table.")
        var json = false

        @OptionGroup var gyro: GyroCalibrationOptions

        func validate() throws {
            if !(duration > 0 && duration <= 3600) { throw ValidationError("--duration \(duration): give seconds above 0, at most 3600") }
        }

        func run() throws {
            try reportingErrors {
                let mapperProfile = try profile.map { try MapperProfile.load(contentsOf: $0) } ?? .default
                let spec = try SourceSpec(parsing: source)
                let devices: VirtualDevices
                do {
                    devices = try VirtualDevices.create()
                } catch {
                    throw BenchSourceFailure(description: "bench map times the writes to /dev/uinput and cannot run without it: \(error)")
                }
                // As `tiltkit map` opens it: an evdev source grabs its own node.
                let made = try spec.makeSource(SourceSpec.Options(gyroCalibration: gyro.choice ?? GyroCalibrationChoice(rawValue: mapperProfile.gyroCalibration.rawValue), exclusive: true))
                let probe = MapLatencyProbe()
                let writer = TimedMapperWriter(devices, probe: probe)
                let session = MapperSession(mapper: Mapper(profile: mapperProfile), writer: writer)
                let pad = Self.physicalPad(of: source)
                let opened = pad?.open { event in if case .controls(let controls, _) = event { session.feed(controls: controls) } }
                for problem in opened?.problems ?? [] { printError("bench map: \(problem)") }

                let interrupt = InterruptFlag()
                let bar = ProgressBar(total: 1000, label: "map")
                probe.start()
                try made.start { event in
                    guard case .samples(let batch) = event else { return }
                    writer.batchArrived()
                    session.feed(samples: batch)
                }
                let begin = Date()
                while !interrupt.isSet, Date().timeIntervalSince(begin) < duration {
                    Thread.sleep(forTimeInterval: 0.05)
                    bar.set(Date().timeIntervalSince(begin) / duration, source)
                }
                made.stop()
                pad?.close()
                probe.stop()
                devices.destroy()
                bar.finish()
                if let failure = session.writeFailure { throw BenchSourceFailure(description: "bench map: a write to uinput failed: \(failure)") }
                let report = probe.report(source: source)
                guard report.reports > 0 else {
                    throw BenchSourceFailure(description: "--source \(source): no reports arrived in \(Figure.fixed(duration, 1)) s")
                }
                try BenchOutput(json: json, plotDirectory: nil).emit(bench: "map", quick: false, report: report, text: report.text)
            }
        }

        /// The pad's evdev side, read and grabbed as `tiltkit map` does, where the source is a pad's node.
        static func physicalPad(of spec: String) -> PhysicalPad? {
            let parts = spec.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, ["hidraw", "evdev"].contains(parts[0]) else { return nil }
            let path = String(parts[1].prefix { $0 != "," })
            return PhysicalPad(sourceKind: parts[0], sourcePath: path, grab: true)
        }
    }
}
