import Foundation
import Motion

/// One trace's count, with what its metadata says about it: `tiltkit pedometer` prints its
/// fields; `tiltkit bench pedometer` scores it against its truth.
///
///     let result = PedometerResult(name: path, samples: trace.samples, notes: ["steps_truth": "120"])
///     print(result.errorPercent ?? .nan)
public struct PedometerResult {
    public var name: String
    public var data: PedometerData
    /// The trace's `# key: value` notes (`steps_truth`, `placement`, the phone's own counts).
    public var notes: [String: String]
    /// The true step count, from `notes["steps_truth"]`; nil leaves it out of the output.
    public var truth: Int?

    public init(name: String, data: PedometerData, notes: [String: String]) {
        self.name = name
        self.data = data
        self.notes = notes
        truth = notes["steps_truth"].flatMap { Int($0) }
    }

    /// `StepCounter` over the whole recording, then its end (the last steps' cadence settled).
    public init(name: String, samples: [MotionSample], stepLength: StepLengthModel = .default, notes: [String: String] = [:]) {
        self.init(name: name, stepLength: stepLength, notes: notes) { visit in samples.forEach(visit) }
    }

    /// The same over the samples `forEachSample` hands to its argument, in time order: a trace read
    /// from its file a piece at a time is counted in memory that does not grow with it.
    public init(name: String, stepLength: StepLengthModel = .default, notes: [String: String] = [:],
                forEachSample: (_ visit: (MotionSample) -> Void) throws -> Void) rethrows {
        var counter = StepCounter(stepLength: stepLength)
        try forEachSample { counter.update($0) }
        counter.finish()
        self.init(name: name, data: counter.data(), notes: notes)
    }

    public var errorPercent: Double? {
        guard let truth, truth > 0 else { return nil }
        return 100 * Double(data.numberOfSteps - truth) / Double(truth)
    }

    /// The error against the Oxford optimisation set's stats.csv count, where there is one.
    public var statsErrorPercent: Double? {
        guard let stats = notes["steps_truth_stats_csv"].flatMap({ Int($0) }), stats > 0 else { return nil }
        return 100 * Double(data.numberOfSteps - stats) / Double(stats)
    }

    public static func meanAbsolute(_ errors: [Double]) -> Double { errors.map(abs).reduce(0, +) / Double(errors.count) }

    public static func within5(_ errors: [Double]) -> String { "\(errors.filter { abs($0) <= 5 }.count)/\(errors.count)" }

    /// Steps per second over the time spent walking (pauses left out): active time is the
    /// average active pace times the distance.
    public var cadence: Double? {
        guard let pace = data.averageActivePace, let distance = data.distance, pace * distance > 0 else { return nil }
        return Double(data.numberOfSteps) / (pace * distance)
    }

    /// Cadence and pace over the time spent walking, not just its last seconds.
    public var fields: [(String, Any)] {
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

    public var json: [String: Any] { Dictionary(uniqueKeysWithValues: fields) }

    public var keyValueText: String {
        let width = fields.map(\.0.count).max() ?? 0
        return fields.map { key, value in
            key.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + Self.text(value)
        }.joined(separator: "\n")
    }

    public static func text(_ value: Any) -> String {
        switch value {
        case let d as Double: String(format: "%.3f", d)
        case let i as Int: String(i)
        default: "-"
        }
    }

    /// One row per result; the phone's own counts (Oxford traces) marked as theirs, and for the
    /// optimisation set stats.csv's count (before the foot sensor's bounces were left out) with
    /// the error against it.
    public static func table(_ results: [PedometerResult]) -> String {
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
