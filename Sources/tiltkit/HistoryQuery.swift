import ArgumentParser
import Foundation
import Motion

/// `tiltkit history query`: `SensorRecorder.accelerometerData(inFile:from:to:)`, no source needed.
struct HistoryQuery: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Print the readings a history file holds between two times (the source's clock, s).",
        discussion: """
        Without --json prints one line: how many readings lie in the range and what the file holds. \
        With --json prints one object per reading and line: {"timestamp":s,"x":g,"y":g,"z":g}. A \
        missing file, a file that is not a history, or one cut short is refused with one line saying which.
        """)

    @Argument(help: "The history file `tiltkit history record` (or SensorRecorder) wrote.")
    var file: String

    @Option(help: "Earliest timestamp, s (default: the oldest held). --start and --end as in convert; the hidden --from and --to are the same.")
    var start: Double?

    /// The names before `--start`/`--end` (SensorRecorder's from:to:), kept for scripts.
    @Option(name: .customLong("from"), help: .hidden)
    var legacyFrom: Double?

    @Option(help: "Latest timestamp, s (default: the newest held).")
    var end: Double?

    @Option(name: .customLong("to"), help: .hidden)
    var legacyTo: Double?

    @Flag(help: "One JSON object per reading and line.")
    var json = false

    func run() throws {
        try reportingErrors {
            if start != nil && legacyFrom != nil || end != nil && legacyTo != nil {
                throw ValidationError("give --start and --end, or the older --from and --to, not both")
            }
            let start = self.start ?? legacyFrom ?? -.infinity, end = self.end ?? legacyTo ?? .infinity
            guard !start.isNaN, !end.isNaN else { throw ValidationError("--start and --end must be numbers") }
            guard start <= end else { throw ValidationError("--start must not be after --end (\(start) > \(end))") }
            let readings = try SensorRecorder.accelerometerData(inFile: file, from: start, to: end)
            if json {
                for r in readings { print(Self.jsonLine(r)) }
                return
            }
            let held = try HistorySummary(file: file)
            let range = readings.isEmpty ? "" :
                String(format: " (%.3f s to %.3f s)", readings[0].timestamp, readings[readings.count - 1].timestamp)
            print("\(readings.count) readings in range\(range); \(held.text)")
        }
    }

    /// `{"timestamp":…,"x":…,"y":…,"z":…}`: s and g, in full precision (Swift's shortest round-trip
    /// form); a value that is not finite (a NaN a device sent) is null, which JSON can hold.
    static func jsonLine(_ r: AccelerometerData) -> String {
        func number(_ v: Double) -> String { v.isFinite ? "\(v)" : "null" }
        let a = r.acceleration
        return "{\"timestamp\":\(number(r.timestamp)),\"x\":\(number(a.x)),\"y\":\(number(a.y)),\"z\":\(number(a.z))}"
    }
}
