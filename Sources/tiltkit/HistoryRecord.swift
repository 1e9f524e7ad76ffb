import ArgumentParser
import Foundation
import Motion
import MotionSources

/// `tiltkit history record`: `SensorRecorder.recordAccelerometer(forDuration:file:)` on any source.
struct HistoryRecord: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Keep a source's accelerometer readings in a history file for --duration seconds of source time.",
        discussion: """
        Stops once the source's clock has passed --duration seconds from its first reading, when a \
        finite source (a trace) ends, or on Ctrl-C; then prints what the file holds. A file made for \
        another --duration or another source rate is refused: record with what it was made for, or \
        delete it.

        Sources: \(SourceSpec.kinds.joined(separator: ", ")), or a trace file path (replayed in real \
        time; --speed applies).
        """)

    @Option(help: "Where motion comes from (see above).")
    var source: String

    @Option(help: "The history file (created if absent; continued if it holds an earlier recording); --out as in record and fuse, the hidden --file is the same.")
    var out: String?

    /// The option's name before `--out`, kept for scripts.
    @Option(name: .customLong("file"), help: .hidden)
    var legacyFile: String?

    private var file: String { out ?? legacyFile ?? "" }

    func validate() throws {
        switch (out, legacyFile) {
        case (nil, nil): throw ValidationError("Missing expected argument '--out <out>'")
        case (_?, _?): throw ValidationError("give --out or --file, not both")
        default: break
        }
    }

    @Option(help: "Seconds of source time to keep, at most 43200 (12 hours); sizes the file.")
    var duration: Double

    @Option(help: "Replay speed factor for trace sources.")
    var speed: Double = 1

    func run() throws {
        try reportingErrors {
            guard duration > 0, duration.isFinite || duration == .infinity else {
                throw ValidationError("--duration must be a positive number of seconds")
            }
            guard speed > 0, speed.isFinite else { throw ValidationError("--speed must be a positive number") }
            let spec = try SourceSpec(parsing: source)
            try OutputPath.refuseOverwriting(file, inputs: spec.inputFiles)
            let motionSource = try spec.openSource(.init(speed: speed))
            let rate = motionSource.info.nominalRate ?? SensorRecorder.assumedRate
            try checkSize(rate: rate)
            let manager = MotionManager(source: motionSource)
            var recorder: SensorRecorder? = SensorRecorder(manager: manager)
            do { try recorder?.recordAccelerometer(forDuration: duration, file: file) } catch {
                throw madeForAnotherDuration(rate: rate) ?? error
            }
            // Pulled beside the recorder only to see the source's clock pass the end.
            manager.startAccelerometerUpdates()
            defer { manager.stopAccelerometerUpdates() }
            try waitForEnd(of: manager, recorder: recorder)
            _ = recorder?.recordedSpan  // waits until every sample handed over is stored
            // A disk that failed mid-recording: said as `record` says it; the file holds what it had.
            if let failure = recorder?.writeFailure { throw failure }
            recorder = nil  // stops and closes the file
            print(try HistorySummary(file: file, source: motionSource.info.name).text)
        }
    }

    /// Refuses a --duration beyond Core Motion's twelve hours, or one whose file would hold more
    /// than a history file can, saying what the file would weigh.
    private func checkSize(rate: Double) throws {
        let readings = SensorRecorder.capacity(forDuration: duration, rate: rate)
        let bytes = Double(AccelerometerHistoryFile.fileBytes(capacity: 0)) + readings * 32
        let weight = bytes.isFinite ? String(format: "%.3g GB (%.0f readings at %g Hz × 1.25)", bytes / 1e9, readings, rate)
                                    : "more than any disk holds"
        let longest = Int(SensorRecorder.maximumDuration)
        guard duration <= SensorRecorder.maximumDuration else {
            throw ValidationError("--duration \(String(format: "%g", duration)) s would make a file of \(weight); at most \(longest) s (12 hours, as Core Motion's CMSensorRecorder)")
        }
        guard readings <= Double(AccelerometerHistoryFile.maximumCapacity) else {
            let most = Double(AccelerometerHistoryFile.maximumCapacity) / (rate * 1.25)
            throw ValidationError("--duration \(String(format: "%g", duration)) s would make a file of \(weight); at \(rate) Hz at most \(Int(most)) s fits a history file")
        }
    }

    /// Returns once the source's clock is `duration` past its first pulled reading, the source
    /// ended, or Ctrl-C; throws when the source failed.
    private func waitForEnd(of manager: MotionManager, recorder: SensorRecorder?) throws {
        let interrupt = InterruptFlag()
        let pump = headlessPump(for: manager.source)
        var first: Double?
        while !interrupt.isSet && recorder?.writeFailure == nil {
            pump?.wait(timeout: 0.05)
            if pump == nil { Thread.sleep(forTimeInterval: 0.05) }
            if let now = manager.accelerometerData?.timestamp {
                if first == nil { first = now }
                if let first, now - first > duration { return }
            }
            switch manager.connectionState {
            case .ended: return
            case .failed(let reason): throw ValidationError(reason)
            default: continue
            }
        }
    }

    /// The sizing error in the flag the user gave, when `file` exists and was made for another
    /// duration (the library only knows capacities).
    private func madeForAnotherDuration(rate: Double) -> ValidationError? {
        guard let existing = try? AccelerometerHistoryFile(existingAt: file, readOnly: true) else { return nil }
        let madeFor = Double(existing.capacity) / (rate * 1.25)
        let figures = String(format: "--duration %g at this source's %g Hz), not --duration %g", madeFor, rate, duration)
        return ValidationError("\(file) was made for \(existing.capacity) readings (\(figures): record with that, or delete it")
    }
}
