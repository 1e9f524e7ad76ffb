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

    @Argument(help: "The recording to read (a file, or a Sensor Logger folder).")
    var input: String

    @Argument(help: "The tiltkit trace to write (replaced if it exists).")
    var output: String

    @Option(help: "The input format. Default: detected from the contents.")
    var from: TraceFormat?

    @Option(help: "Keep samples from this time on (seconds).")
    var start: Double?

    @Option(help: "Keep samples up to this time (seconds).")
    var end: Double?

    func run() throws {
        try reportingErrors {
            var trace = try loadTrace(input, format: from)
            if start != nil || end != nil {
                trace = try trace.cut(from: start ?? -.infinity, to: end ?? .infinity)
            }
            try trace.write(to: URL(fileURLWithPath: output))
            print(String(format: "wrote %d samples (%.3f s) to %@", trace.samples.count, trace.duration, output))
        }
    }
}
