import ArgumentParser
import Foundation
import Motion
import MotionSources
import MotionDevices

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record a motion source into a tiltkit trace.",
        discussion: """
        Writes every sample the source delivers, as it arrives, to a `# tiltkit-trace v1` CSV \
        (flushed per sample, so an interrupted recording keeps what it got). Stops after --duration \
        seconds, when a finite source ends, on Ctrl-C, or when a write fails (a full disk: the file \
        keeps every whole line written before), and closes the file.

        Sources: \(SourceSpec.kinds.joined(separator: ", ")), or a trace file path (replayed in real \
        time; --speed and --loop apply).

        The summary at the end goes to stdout (stderr with --out -); --json makes it one JSON object,         keys: samples, skipped (non-increasing time or non-finite values), source (the device's or         trace's name), out, reports (the device's report counters, null for traces), gyro_calibration         (null unless the source is calibrated).

        Example: tiltkit record --source trace:Assets/traces/mpower/balance_data.csv --out balance.csv --speed 5
        """)

    @Option(help: "Where motion comes from (see above).")
    var source: String

    @Option(help: "The trace file to write (replaced if it exists); '-' for standard output.")
    var out: String

    @Option(help: "Stop after this many seconds of wall time.")
    var duration: Double?

    @Option(help: "Replay speed factor for trace sources.")
    var speed: Double = 1

    @Flag(help: "Loop trace sources (record until --duration or Ctrl-C).")
    var loop = false

    @OptionGroup var gyro: GyroCalibrationOptions

    @Flag(help: "Print the summary as one JSON object (keys above).")
    var json = false

    func run() throws {
        try reportingErrors {
            if let duration, !(duration > 0 && duration.isFinite) { throw ValidationError("--duration must be a positive number") }
            guard speed > 0, speed.isFinite else { throw ValidationError("--speed must be a positive number") }
            let spec = try SourceSpec(parsing: source)
            let destination = OutputPath(out)
            try OutputPath.refuseOverwriting(out, inputs: spec.inputFiles)
            let motionSource = try spec.openSource(.init(speed: speed, loop: loop, gyroCalibration: gyro.choice))
            let columns = (GyroCalibratedSource.unwrapped(motionSource) as? ReplaySource)?.columns
            // Written beside the output and renamed over it when the recording ends.
            let target = try destination.open(reading: [])
            let recorder = try TraceRecorder(source: motionSource, to: URL(fileURLWithPath: target.path), name: destination.name,
                                             columns: columns,
                                             onConnectionChange: { event in
                // Said at once on stderr: the recording goes on and resumes when the device returns.
                switch event {
                case .disconnected(let reason): printError("tiltkit: \(reason); recording resumes if it comes back")
                case .reconnected: printError("tiltkit: \(motionSource.info.name) is back; recording resumed")
                default: break
                }
            })
            let interrupt = InterruptFlag()
            let pump = headlessPump(for: motionSource)
            try recorder.start()
            let clock = MonotonicClock()
            let deadline = duration.map { clock.now() + $0 } ?? .infinity
            while !recorder.waitUntilEnded(timeout: pump == nil ? 0.1 : 0) && !interrupt.isSet && clock.now() < deadline {
                pump?.wait(timeout: 0.1)
            }
            let result: TraceRecorder.Result
            do { result = try recorder.stop() } catch {
                // One line: what failed, and that the file is whole up to there (replay reads it).
                // Motion cannot be recorded again: what was written goes in place all the same.
                try? target.file?.commit()
                throw RecordingStopped(reason: error, samplesKept: recorder.samplesWritten)
            }
            try target.file?.commit()
            let reports = (GyroCalibratedSource.unwrapped(motionSource) as? any DiagnosableMotionSource)?.diagnostics
            let calibration = (motionSource as? GyroCalibratedSource)?.currentCalibration.summary
            if json {
                destination.summary(jsonText(["samples": result.samplesWritten, "skipped": result.samplesSkipped,
                                              "source": motionSource.info.name, "out": destination.name,
                                              "reports": reports, "gyro_calibration": calibration]))
                return
            }
            let skipped = result.samplesSkipped > 0 ? ", skipped \(result.samplesSkipped) with non-increasing time or non-finite values" : ""
            destination.summary("recorded \(result.samplesWritten) samples from \(motionSource.info.name) to \(destination.name)\(skipped)")
            if let reports { destination.summary("reports: \(reports)") }
            if let calibration { destination.summary(calibration) }
        }
    }
}

/// A recording ended by a failed write.
private struct RecordingStopped: Error, CustomStringConvertible {
    let reason: Error
    let samplesKept: Int
    var description: String { "\(reason); recording stopped, the file keeps the \(samplesKept) samples written before" }
}
