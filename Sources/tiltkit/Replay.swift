import ArgumentParser
import Foundation
import Motion

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Summarise a trace: duration, rate, gaps, value ranges; optionally replay it in real time.",
        discussion: """
        Reads any format `tiltkit convert` reads (detected from the contents unless --from is given) \
        and prints the number of samples, duration, mean rate, the sensors and reference columns \
        present, every gap longer than 3× the median sample period (with where it is), and each \
        column's range. A malformed file gets one line naming the file, the line and what is wrong.

        With --realtime the trace is also played through a ReplaySource on its own thread, honouring \
        the timestamps (scaled by --speed), and the number of samples delivered is reported.

        --json prints one JSON object instead, keys: trace, imported_from (null for tiltkit traces),         samples, duration_s, mean_rate_hz, median_period_ms, nominal_rate_hz, sensors, reference,         gap_factor, gap_count, gaps [{start_s, end_s, length_ms, after_sample}] (the first 20),         ranges [{column, unit, min, max, samples}], and replayed (null without --realtime, else         {samples, wall_s, trace_s, speed, ended}). Unknown values are null.

        Examples:
          tiltkit replay Assets/traces/xio/sensor_data.csv --realtime --speed 10
          tiltkit convert Assets/traces/xio/sensor_data.csv - --start 10 --end 20 | tiltkit replay - --json
        """)

    @Argument(help: "The trace file (or Sensor Logger folder); '-' for standard input.")
    var file: String

    @Option(help: "The input format. Default: detected from the contents.")
    var from: TraceFormat?

    @Flag(help: "Also play the trace at its own pace and report what was delivered.")
    var realtime = false

    @Option(help: "Replay speed factor for --realtime (2 = twice as fast).")
    var speed: Double = 1

    @Flag(help: "Print the summary as one JSON object (keys above).")
    var json = false

    func run() throws {
        try reportingErrors {
            guard speed > 0, speed.isFinite else { throw ValidationError("--speed must be a positive number") }
            // Two reading passes (the gaps need the median period), neither holding the file.
            let url = try InputPath.url(file)
            var metadata: TraceMetadata?
            let summary = try TraceSummary { visit in
                let stream = try TraceSampleStream(contentsOf: url, format: from)
                var count = 0
                while let sample = try stream.next() { visit(sample); count += 1 }
                if metadata == nil { printWarnings(stream.warnings, samplesRead: count) }
                metadata = stream.metadata
            }
            let text = TraceSummaryText(metadata: metadata!, summary: summary)
            if !json { print(text.lines.joined(separator: "\n")) }
            let replayed = realtime ? try play(url, summary: summary) : nil
            if json {
                var object = text.jsonObject
                object.updateValue(replayed, forKey: "replayed")
                printJSON(object)
            }
            if let replayed, replayed["ended"] as? Bool != true || replayed["samples"] as? Int != summary.sampleCount {
                throw ExitCode.failure
            }
        }
    }

    /// Plays the trace; returns what `--json` says of it (the text is printed here).
    private func play(_ url: URL, summary: TraceSummary) throws -> [String: Any?] {
        let counter = DeliveryCounter()
        let replay = try ReplaySource(file: url, format: from, summary: summary, pacing: .realTime(speed: speed))
        let clock = MonotonicClock()
        let started = clock.now()
        try replay.start { counter.record($0) }
        // A file is read as it plays, so a long one can take longer than its scaled duration:
        // give up only once nothing has arrived for 10 s after the last sample was due.
        let ended = counter.waitUntilEnded(due: Date(timeIntervalSinceNow: summary.duration / speed), stall: 10)
        replay.stop()
        let wall = clock.now() - started
        let (count, first, last, failure) = counter.snapshot
        if let failure { printError("tiltkit: \(failure)") }
        if !json {
            print(String(format: "replayed   %d of %d samples in %.3f s wall time (trace time %.3f s at %gx)%@",
                         count, summary.sampleCount, wall, (last ?? 0) - (first ?? 0),
                         speed, ended ? "" : ", did not end in time"))
        }
        return ["samples": count, "wall_s": wall, "trace_s": (last ?? 0) - (first ?? 0), "speed": speed, "ended": ended]
    }
}

/// Counts replay events across threads.
private final class DeliveryCounter: @unchecked Sendable {
    private let condition = NSCondition()
    private var count = 0
    private var firstTimestamp: Double?
    private var lastTimestamp: Double?
    private var failure: String?
    private var ended = false

    func record(_ event: MotionSourceEvent) {
        condition.lock(); defer { condition.unlock() }
        switch event {
        case .samples(let batch):
            count += batch.count
            firstTimestamp = firstTimestamp ?? batch.first?.timestamp
            lastTimestamp = batch.last?.timestamp ?? lastTimestamp
        case .ended: ended = true; condition.broadcast()
        case .disconnected(let reason): failure = reason
        case .reconnected: break
        }
    }

    /// Waits for `.ended`; false once, past `due`, no sample has arrived for `stall` seconds.
    func waitUntilEnded(due: Date, stall: Double) -> Bool {
        condition.lock(); defer { condition.unlock() }
        var seen = count, progressed = Date()
        while !ended {
            _ = condition.wait(until: Date(timeIntervalSinceNow: 1))
            if count != seen {
                seen = count
                progressed = Date()
            } else if Date() > due && Date().timeIntervalSince(progressed) > stall {
                return ended
            }
        }
        return true
    }

    var snapshot: (Int, Double?, Double?, String?) {
        condition.lock(); defer { condition.unlock() }
        return (count, firstTimestamp, lastTimestamp, failure)
    }
}

/// The summary as aligned text lines.
struct TraceSummaryText {
    let metadata: TraceMetadata
    let summary: TraceSummary
    /// Gaps listed one per line up to this many; the rest are counted.
    var maxGapLines = 20

    var lines: [String] {
        var lines: [String] = []
        let format = metadata.importedFrom.map { " (imported from \($0.rawValue))" } ?? ""
        lines.append("trace      \(metadata.source)\(format)")
        lines.append(String(format: "samples    %d over %.3f s", summary.sampleCount, summary.duration))
        if let rate = summary.meanRate, let period = summary.medianPeriod {
            let nominal = metadata.nominalRate.map { String(format: ", nominal %g Hz", $0) } ?? ""
            lines.append(String(format: "rate       %.2f Hz mean, median period %.3f ms%@", rate, period * 1000, nominal))
        }
        var sensors = ["accelerometer"]
        if summary.columns.contains(.rotationRate) { sensors.append("gyroscope") }
        if summary.columns.contains(.magneticField) { sensors.append("magnetometer") }
        lines.append("sensors    \(sensors.joined(separator: ", "))")
        var reference: [String] = []
        if summary.columns.contains(.referenceAttitude) { reference.append("attitude") }
        if summary.columns.contains(.referenceGravity) { reference.append("gravity") }
        if summary.columns.contains(.referenceUserAcceleration) { reference.append("user acceleration") }
        lines.append("reference  \(reference.isEmpty ? "none" : reference.joined(separator: ", "))")
        if let period = summary.medianPeriod {
            let limit = String(format: "%.3f ms (%g× median period)", summary.gapFactor * period * 1000, summary.gapFactor)
            if summary.gaps.isEmpty {
                lines.append("gaps       none longer than \(limit)")
            } else {
                lines.append("gaps       \(summary.gapCount) longer than \(limit):")
                for gap in summary.gaps.prefix(maxGapLines) {
                    lines.append(String(format: "             %.3f ms from %.6f s to %.6f s (after sample %d)",
                                        gap.length * 1000, gap.start, gap.end, gap.sampleIndex + 1))
                }
                if summary.gapCount > maxGapLines { lines.append("             … and \(summary.gapCount - maxGapLines) more") }
            }
        }
        lines.append("ranges")
        for r in summary.ranges {
            let name = r.unit.isEmpty ? r.column : "\(r.column) (\(r.unit))"
            let filled = r.filled < summary.sampleCount ? "  (\(r.filled) samples)" : ""
            lines.append(String(format: "  %@ %12.6f … %12.6f%@", name.padding(toLength: 16, withPad: " ", startingAt: 0),
                                r.min, r.max, filled))
        }
        return lines
    }

    /// The same summary for `replay --json` (keys in `Replay`'s help).
    var jsonObject: [String: Any?] {
        var reference: [String] = []
        if summary.columns.contains(.referenceAttitude) { reference.append("attitude") }
        if summary.columns.contains(.referenceGravity) { reference.append("gravity") }
        if summary.columns.contains(.referenceUserAcceleration) { reference.append("user_acceleration") }
        var sensors = ["accelerometer"]
        if summary.columns.contains(.rotationRate) { sensors.append("gyroscope") }
        if summary.columns.contains(.magneticField) { sensors.append("magnetometer") }
        let gaps: [Any?] = summary.gaps.prefix(maxGapLines).map { gap -> Any? in
            ["start_s": gap.start, "end_s": gap.end, "length_ms": gap.length * 1000, "after_sample": gap.sampleIndex + 1] as [String: Any?]
        }
        let ranges: [Any?] = summary.ranges.map { r -> Any? in
            ["column": r.column, "unit": r.unit, "min": r.min, "max": r.max, "samples": r.filled] as [String: Any?]
        }
        return ["trace": metadata.source, "imported_from": metadata.importedFrom?.rawValue, "samples": summary.sampleCount,
                "duration_s": summary.duration, "mean_rate_hz": summary.meanRate, "median_period_ms": summary.medianPeriod.map { $0 * 1000 },
                "nominal_rate_hz": metadata.nominalRate, "sensors": sensors, "reference": reference,
                "gap_factor": summary.gapFactor, "gap_count": summary.gapCount, "gaps": gaps, "ranges": ranges, "replayed": nil]
    }
}
