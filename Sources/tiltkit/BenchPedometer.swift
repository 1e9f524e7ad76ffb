import ArgumentParser
import Foundation
import Motion
import MotionEvaluation

extension Bench {
    /// `tiltkit bench pedometer`: the step count against a true one.
    struct Pedometer: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Step counts against their truth: traces' `# steps_truth:` lines, or the Oxford Step Counter dataset.",
            discussion: """
            For each trace (any format `tiltkit convert` reads) the count, the true count its \
            `# steps_truth: N` line carries (as in Assets/traces/oxford-steps) and the error in %; \
            for several, a table with the mean |error| and how many are within 5 %. --data DIR runs \
            over the Oxford Step Counter dataset's optimisation recordings (DIR/stats.csv and \
            DIR/data/*/accelerometer.csv, github.com/Oxford-step-counter/DataSet); their truth is the \
            foot sensor's log (DIR/data/*/stepcounter.csv) with its contact bounces left out and its \
            missed landings counted, and stats.csv's own count is shown beside it.

            Examples:
              tiltkit bench pedometer Assets/traces/oxford-steps/*.csv
              tiltkit bench pedometer --data ../shared/data/oxford-step-counter/optimisation
            """)

        @Argument(help: "Trace files (or Sensor Logger folders) with a `# steps_truth:` line.")
        var files: [String] = []

        @Option(help: ArgumentHelp("The Oxford Step Counter dataset's optimisation folder (with stats.csv and data/).", valueName: "DIR"))
        var data: String?

        @Option(name: .customLong("step-length"), help: "Step length in m (default: from cadence, the walk-ratio model).")
        var stepLength: Double?

        @Flag(help: "Print JSON: one object for one recording, an array for several.")
        var json = false

        func validate() throws {
            if let stepLength, !(stepLength.isFinite && stepLength > 0 && stepLength < 5) {
                throw ValidationError("--step-length must be a length in metres between 0 and 5, not \(stepLength)")
            }
            if files.isEmpty && data == nil { throw ValidationError("give a trace FILE or --data DIR") }
        }

        func run() throws {
            try reportingErrors {
                let model = stepLength.map { StepLengthModel.fixed(metres: $0) } ?? .default
                var results = try files.map { file in
                    let result = PedometerResult(name: file, samples: try loadTrace(file).samples, stepLength: model,
                                                 notes: try TraceNotes.read(contentsOf: URL(fileURLWithPath: file)))
                    if result.truth == nil { printError("tiltkit: warning: \(file) has no '# steps_truth:' line") }
                    return result
                }
                if let data {
                    results += try OxfordOptimisationSet.load(data).map { recording in
                        PedometerResult(name: recording.name, samples: recording.samples, stepLength: model,
                                        notes: ["placement": recording.placement, "steps_truth": String(recording.truth),
                                                "steps_truth_stats_csv": String(recording.statsTruth)])
                    }
                }
                try PedometerCommand.print(results, json: json)
            }
        }
    }
}
