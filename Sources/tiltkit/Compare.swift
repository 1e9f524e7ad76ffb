import ArgumentParser
import Benchmarks
import Foundation
import Motion
import MotionEvaluation

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fusion against accelerometer-only on one recording: tilt error, lag on turns, jitter at rest.",
        discussion: """
        Runs fusion and the accelerometer-only estimate at each gravity cut-off over the same \
        samples and prints, per estimator, the RMS of the tilt (gravity direction) error, the lag \
        on the recording's turns (the shift that best aligns it with the reference while that turns \
        faster than \(Int(TiltComparison.turnRate)) deg/s) and the jitter at rest (RMS angle from its \
        own 1 s mean while the reference turns slower than \(Int(TiltComparison.restRate)) deg/s). \
        The first \(Int(TiltComparison.skip)) s are start-up and not measured.

        The reference is the recording's own (Core Motion's output in iPhone recordings, ground truth \
        in BROAD) where it has one; otherwise Tiltkit's fusion, and fusion's own row is left out.

        --plot DIR writes the error over time and lag against jitter per cut-off as SVG, and as PNG \
        when rsvg-convert (librsvg2-bin) is installed.

        --json prints one JSON object instead of the table, keys: trace, reference ("recording" or         "fusion"), turning_samples, rest_samples, rows [{estimator, cutoff_hz (null for fusion),         tilt_error_rms_deg, lag_ms, jitter_deg}] (null where not measurable), plots (the files         --plot wrote).

        Example: tiltkit compare Assets/traces/broad/01_undisturbed_slow_rotation_A_26-61s.csv --plot plots/
        """)

    @Argument(help: "The trace file (or Sensor Logger folder); '-' for standard input.")
    var file: String

    @Option(help: "Accelerometer-only cut-offs, Hz, comma-separated.")
    var cutoffs: String = TiltComparison.standardCutoffs.map { String(format: "%g", $0) }.joined(separator: ",")

    @Option(help: "Write the plots (SVG, and PNG with rsvg-convert) into this directory.")
    var plot: String?

    @Flag(help: "Print the figures as one JSON object (keys above).")
    var json = false

    func run() throws {
        try reportingErrors {
            let list = cutoffs.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard !list.isEmpty, list.allSatisfy({ $0 != nil && $0! > 0 && $0!.isFinite }) else {
                throw ValidationError("--cutoffs must be positive frequencies in Hz, e.g. 0.5,1,2,5,10")
            }
            let url = try InputPath.url(file)
            guard try TraceSampleStream(contentsOf: url).columns.contains(.rotationRate) else {
                throw ValidationError("\(file) has no gyro: fusion needs one, so there is nothing to compare against")
            }
            // Two passes over the file, a piece at a time; the reader's warnings are said once.
            var pass = 0
            let report = try TiltComparison.measure(cutoffs: list.map { $0! }) { visit in
                pass += 1
                try forEachSample(in: url, warn: pass == 1, visit)
            }
            let name = URL(fileURLWithPath: file).lastPathComponent
            if !json { print(Self.table(report, name: name)) }
            var plots: [String] = []
            if let plot {
                let base = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
                for output in ComparePlots.files(name: base, in: URL(fileURLWithPath: plot)) {
                    try OutputPath.refuseOverwriting(output.path, inputs: [file])
                }
                do { plots = try ComparePlots.write(report, name: base, to: URL(fileURLWithPath: plot)).map(\.path) } catch {
                    throw PlotsNotWritten(directory: plot, reason: personText(error))
                }
                if !json { for path in plots { print("wrote \(path)") } }
            }
            if json { printJSON(Self.jsonObject(report, name: name, plots: plots)) }
        }
    }

    /// `compare --json` (keys in the help).
    static func jsonObject(_ report: TiltComparison, name: String, plots: [String]) -> [String: Any?] {
        let rows: [Any?] = report.rows.map { row -> Any? in
            ["estimator": row.name, "cutoff_hz": row.cutoff, "tilt_error_rms_deg": row.errorRMS, "lag_ms": row.lag * 1000,
             "jitter_deg": row.jitter] as [String: Any?]
        }
        return ["trace": name, "reference": report.reference == .recording ? "recording" : "fusion",
                "turning_samples": report.turnCount, "rest_samples": report.restCount, "rows": rows, "plots": plots]
    }

    static func table(_ report: TiltComparison, name: String) -> String {
        let reference = report.reference == .recording ? "the recording's own (ref_ columns)" : "Tiltkit's fusion (the recording has none)"
        var lines = ["\(name): reference \(reference); \(report.turnCount) samples turning, \(report.restCount) at rest",
                     "estimator        tilt error RMS   lag on turns   jitter at rest"]
        func figure(_ v: Double, _ format: String) -> String { v.isFinite ? String(format: format, v) : "-" }
        for row in report.rows {
            lines.append(row.name.padding(toLength: 16, withPad: " ", startingAt: 0)
                         + figure(row.errorRMS, "%10.2f deg").padding(toLength: 17, withPad: " ", startingAt: 0)
                         + figure(row.lag * 1000, "%8.0f ms").padding(toLength: 15, withPad: " ", startingAt: 0)
                         + figure(row.jitter, "%9.3f deg"))
        }
        return lines.joined(separator: "\n")
    }
}

/// `--plot DIR` that could not be made or written into.
private struct PlotsNotWritten: Error, CustomStringConvertible {
    let directory: String
    let reason: String
    var description: String { "--plot \(directory): expected a folder to write the plots in; \(reason)" }
}
