import ArgumentParser
import Foundation
import Motion

extension TraceFormat: ExpressibleByArgument {}

struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert a recording into tiltkit's trace format, optionally cutting a time range.",
        discussion: """
        Reads: tiltkit traces; the `t,ax,…,ref_uaz` layout of Assets/traces; x-io Fusion CSV \
        (deg/s, specific force); Sensor Logger export folders (iOS/Android, per-sensor CSVs with \
        Metadata.csv); SensorLog CSV (iOS). The format is detected from the contents unless --from \
        is given. Writes `# tiltkit-trace v1` CSV: time in s, acceleration in g including gravity \
        (Core Motion's sign: face up reads (0,0,-1)), gyro in rad/s, magnetometer in uT, and the \
        recording's own reference attitude, gravity and user acceleration when it has them.

        --start/--end keep the samples with start <= t <= end, in seconds on the input's time axis.

        Example: tiltkit convert Assets/traces/xio/sensor_data_original.csv pitch.csv --start 15 --end 30
        """)

    @Argument(help: "The recording to read (a file, or a Sensor Logger folder); '-' for standard input.")
    var input: String

    @Argument(help: "The tiltkit trace to write (replaced if it exists); '-' for standard output.")
    var output: String

    @Option(help: "The input format. Default: detected from the contents.")
    var from: TraceFormat?

    @Option(help: "Keep samples from this time on (seconds).")
    var start: Double?

    @Option(help: "Keep samples up to this time (seconds).")
    var end: Double?

    func run() throws {
        try reportingErrors {
            let first = start ?? -.infinity, last = end ?? .infinity
            guard first <= last else { throw TraceCutError.invertedRange(start: first, end: last) }
            // Sample by sample from file to file: memory does not grow with the trace.
            let stream = try TraceSampleStream(contentsOf: try InputPath.url(input), format: from)
            var metadata = stream.metadata
            if start != nil || end != nil { metadata.source = Trace.cutSource(metadata.source, from: first, to: last) }
            let destination = OutputPath(output)
            // Written beside the output and renamed over it once whole; never over the input.
            let target = try destination.open(reading: [input])
            let writer = try TraceWriter(url: URL(fileURLWithPath: target.path), name: destination.name,
                                         metadata: metadata, columns: stream.columns)
            var written = 0
            var kept: ClosedRange<Double>?, all: ClosedRange<Double>?
            while let sample = try stream.next() {
                let t = sample.timestamp
                all = (all?.lowerBound ?? t)...t
                guard t >= first && t <= last else { continue }
                try writer.append(sample)
                written += 1
                kept = (kept?.lowerBound ?? t)...t
            }
            try writer.close()
            printWarnings(stream.warnings, samplesRead: all == nil ? 0 : written)
            guard let kept else {
                target.file?.discard()
                throw TraceCutError.emptyRange(start: first, end: last, duration: all.map { $0.upperBound - $0.lowerBound } ?? 0)
            }
            try target.file?.commit()
            destination.summary(String(format: "wrote %d samples (%.3f s) to %@", written, kept.upperBound - kept.lowerBound, destination.name))
        }
    }
}
