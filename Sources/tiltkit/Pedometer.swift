import ArgumentParser
import Foundation
import Motion

struct PedometerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pedometer",
        abstract: "Count steps (and floors, from pressure) in traces, as Core Motion's CMPedometer.",
        discussion: """
        Reads any format `tiltkit convert` reads. For one file prints steps, distance_m,
        cadence_steps_per_s (at the end of the walk), pace_s_per_m (average while walking),
        floors_ascended, floors_descended; for several, one row each. --truth adds the true count a
        trace carries (`# steps_truth: N`, as in Assets/traces/oxford-steps) and the error in %.
        --data DIR runs over the Oxford Step Counter dataset's optimisation recordings
        (DIR/stats.csv and DIR/data/*/accelerometer.csv, github.com/Oxford-step-counter/DataSet);
        their truth is the foot sensor's log (DIR/data/*/stepcounter.csv) with its contact bounces
        left out and its missed landings counted, and stats.csv's own count is shown beside it.

        Example: tiltkit pedometer Assets/traces/oxford-steps/*.csv --truth
        """)

    @Argument(help: "Trace files (or Sensor Logger folders).")
    var files: [String] = []

    @Flag(help: "Print JSON: one object for one file, an array for several.")
    var json = false

    @Option(name: .customLong("step-length"), help: "Step length in m (default: from cadence, the walk-ratio model).")
    var stepLength: Double?

    @Flag(help: "Also print the true step count from the trace's metadata and the error in %.")
    var truth = false

    @Option(help: "The Oxford Step Counter dataset's optimisation folder (with stats.csv and data/).")
    var data: String?

    func run() throws {
        try reportingErrors {
            if let stepLength, !(stepLength.isFinite && stepLength > 0 && stepLength < 5) {
                throw ValidationError("--step-length must be a length in metres between 0 and 5, not \(stepLength)")
            }
            guard !files.isEmpty || data != nil else { throw ValidationError("give a trace FILE or --data DIR") }
            var results: [PedometerResult] = []
            for file in files {
                let trace = try loadTrace(file)
                let notes = try TraceNotes.read(contentsOf: URL(fileURLWithPath: file))
                var result = PedometerResult(name: file, data: count(trace.samples), notes: notes)
                if truth && result.truth == nil { printError("tiltkit: warning: \(file) has no '# steps_truth:' line") }
                if !truth { result.truth = nil }
                results.append(result)
            }
            if let data { results += try OxfordOptimisationSet.load(data).map { recording in
                PedometerResult(name: recording.name, data: count(recording.samples),
                                notes: ["placement": recording.placement, "steps_truth": String(recording.truth),
                                        "steps_truth_stats_csv": String(recording.statsTruth)])
            } }
            if json {
                let objects = results.map(\.json)
                let value: Any = objects.count == 1 ? objects[0] : objects
                let bytes = try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys])
                print(String(decoding: bytes, as: UTF8.self))
            } else if results.count == 1 {
                print(results[0].keyValueText)
            } else {
                print(PedometerResult.table(results))
            }
        }
    }

    private func count(_ samples: [MotionSample]) -> PedometerData {
        var counter = StepCounter(stepLength: stepLength.map { .fixed(metres: $0) } ?? .default)
        for sample in samples { counter.update(sample) }
        counter.finish()
        return counter.data()
    }
}

/// One trace's count, with what its metadata says about it.
struct PedometerResult {
    var name: String
    var data: PedometerData
    var notes: [String: String]
    var truth: Int?

    init(name: String, data: PedometerData, notes: [String: String]) {
        self.name = name
        self.data = data
        self.notes = notes
        truth = notes["steps_truth"].flatMap { Int($0) }
    }

    var errorPercent: Double? {
        guard let truth, truth > 0 else { return nil }
        return 100 * Double(data.numberOfSteps - truth) / Double(truth)
    }

    /// The error against the Oxford optimisation set's stats.csv count, where there is one.
    var statsErrorPercent: Double? {
        guard let stats = notes["steps_truth_stats_csv"].flatMap({ Int($0) }), stats > 0 else { return nil }
        return 100 * Double(data.numberOfSteps - stats) / Double(stats)
    }

    static func meanAbsolute(_ errors: [Double]) -> Double { errors.map(abs).reduce(0, +) / Double(errors.count) }

    static func within5(_ errors: [Double]) -> String { "\(errors.filter { abs($0) <= 5 }.count)/\(errors.count)" }

    /// Steps per second over the time spent walking (pauses left out): active time is the
    /// average active pace times the distance.
    var cadence: Double? {
        guard let pace = data.averageActivePace, let distance = data.distance, pace * distance > 0 else { return nil }
        return Double(data.numberOfSteps) / (pace * distance)
    }

    /// Cadence and pace over the time spent walking, not just its last seconds.
    var fields: [(String, Any)] {
        var f: [(String, Any)] = [
            ("steps", data.numberOfSteps),
            ("distance_m", data.distance ?? NSNull()),
            ("cadence_steps_per_s", cadence ?? NSNull()),
            ("pace_s_per_m", data.averageActivePace ?? NSNull()),
            ("floors_ascended", data.floorsAscended ?? NSNull()),
            ("floors_descended", data.floorsDescended ?? NSNull()),
        ]
        if let truth {
            f.append(("steps_truth", truth))
            f.append(("error_percent", errorPercent ?? NSNull()))
        }
        if let stats = notes["steps_truth_stats_csv"].flatMap({ Int($0) }) {
            f.append(("steps_truth_stats_csv", stats))
            f.append(("error_percent_stats_csv", statsErrorPercent ?? NSNull()))
        }
        return f
    }

    var json: [String: Any] { Dictionary(uniqueKeysWithValues: fields) }

    var keyValueText: String {
        let width = fields.map(\.0.count).max() ?? 0
        return fields.map { key, value in
            key.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + Self.text(value)
        }.joined(separator: "\n")
    }

    static func text(_ value: Any) -> String {
        switch value {
        case let d as Double: String(format: "%.3f", d)
        case let i as Int: String(i)
        default: "-"
        }
    }

    /// One row per result; the phone's own counts (Oxford traces) marked as theirs, and for the
    /// optimisation set stats.csv's count (before the foot sensor's bounces were left out) with
    /// the error against it.
    static func table(_ results: [PedometerResult]) -> String {
        let withStats = results.contains { $0.notes["steps_truth_stats_csv"] != nil }
        var header = ["file", "placement", "truth", "tiltkit", "error %", "cadence /s", "distance m",
                      "phone algorithm (theirs)", "phone hardware (theirs)"]
        if withStats { header.append("stats.csv (error %)") }
        var rows = [header]
        for r in results {
            var row = [
                (r.name as NSString).lastPathComponent == "accelerometer.csv" ? r.name : (r.name as NSString).lastPathComponent,
                r.notes["placement"] ?? "-", r.truth.map(String.init) ?? "-", String(r.data.numberOfSteps),
                r.errorPercent.map { String(format: "%+.1f", $0) } ?? "-",
                r.cadence.map { String(format: "%.2f", $0) } ?? "-",
                r.data.distance.map { String(format: "%.0f", $0) } ?? "-",
                r.notes["steps_phone_algorithm"] ?? "-", r.notes["steps_phone_hardware_counter"] ?? "-",
            ]
            if withStats {
                row.append(r.statsErrorPercent.map { "\(r.notes["steps_truth_stats_csv"] ?? "") (" + String(format: "%+.1f", $0) + ")" } ?? "-")
            }
            rows.append(row)
        }
        let blank = Array(repeating: "", count: header.count - 5)
        let errors = results.compactMap(\.errorPercent)
        if !errors.isEmpty {
            rows.append(["mean |error|", "", "", "", String(format: "%.1f", Self.meanAbsolute(errors))] + blank)
            rows.append(["within 5 %", "", "", "", Self.within5(errors)] + blank)
        }
        let statsErrors = results.compactMap(\.statsErrorPercent)
        if !statsErrors.isEmpty {
            rows.append(["against stats.csv: mean |error|", "", "", "", String(format: "%.1f", Self.meanAbsolute(statsErrors))] + blank)
            rows.append(["against stats.csv: within 5 %", "", "", "", Self.within5(statsErrors)] + blank)
        }
        let widths = header.indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { row in
            row.indices.map { c in row[c].padding(toLength: widths[c], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }
}
