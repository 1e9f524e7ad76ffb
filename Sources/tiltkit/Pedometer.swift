import ArgumentParser
import Foundation
import Motion
import MotionEvaluation

struct PedometerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pedometer",
        abstract: "Count steps (and floors, from pressure) in traces, as Core Motion's CMPedometer.",
        discussion: """
        Reads any format `tiltkit convert` reads. For one file prints steps, distance_m,
        cadence_steps_per_s (at the end of the walk), pace_s_per_m (average while walking),
        floors_ascended, floors_descended; for several, one row each. The count against a true
        one (a trace's `# steps_truth: N`, the Oxford Step Counter dataset) is
        `tiltkit bench pedometer`.

        Example: tiltkit pedometer Assets/traces/oxford-steps/*.csv
        """)

    @Argument(help: "Trace files (or Sensor Logger folders).")
    var files: [String] = []

    @Flag(help: "Print JSON: one object for one file, an array for several.")
    var json = false

    @Option(name: .customLong("step-length"), help: "Step length in m (default: from cadence, the walk-ratio model).")
    var stepLength: Double?

    /// Moved to `tiltkit bench pedometer`; kept so the old invocation says where.
    @Flag(help: .hidden)
    var truth = false

    /// Moved to `tiltkit bench pedometer`; kept so the old invocation says where.
    @Option(help: .hidden)
    var data: String?

    func validate() throws {
        if truth || data != nil {
            printError("tiltkit pedometer: \(truth ? "--truth" : "--data") moved: tiltkit bench pedometer FILE… [--data DIR]")
            throw ExitCode.failure
        }
        if let stepLength, !(stepLength.isFinite && stepLength > 0 && stepLength < 5) {
            throw ValidationError("--step-length must be a length in metres between 0 and 5, not \(stepLength)")
        }
        if files.isEmpty { throw ValidationError("give a trace FILE") }
    }

    func run() throws {
        try reportingErrors {
            let model = stepLength.map { StepLengthModel.fixed(metres: $0) } ?? .default
            let results = try files.map { file in
                let url = URL(fileURLWithPath: file)
                var result = try PedometerResult(name: file, stepLength: model, notes: try TraceNotes.read(contentsOf: url)) { visit in
                    try forEachSample(in: url, visit)
                }
                result.truth = nil  // the count alone; against its truth is `tiltkit bench pedometer`
                return result
            }
            try Self.print(results, json: json)
        }
    }

    /// One file: key-value lines (or one JSON object); several: a table (or a JSON array).
    static func print(_ results: [PedometerResult], json: Bool) throws {
        if json {
            let objects = results.map(\.json)
            let value: Any = objects.count == 1 ? objects[0] : objects
            let bytes = try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys])
            Swift.print(String(decoding: bytes, as: UTF8.self))
        } else if results.count == 1 {
            Swift.print(results[0].keyValueText)
        } else {
            Swift.print(PedometerResult.table(results))
        }
    }
}
