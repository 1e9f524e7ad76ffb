import ArgumentParser
import Foundation
import Motion

struct Activity: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Motion activity (stationary, walking, running, automotive, cycling) over a trace, as Core Motion's CMMotionActivity.",
        discussion: """
        Reads any trace `tiltkit replay` reads and prints one segment per line: start and end in \
        seconds from the first sample, the activity and its confidence (low, medium, high). With \
        --json each line is {"start":…,"end":…,"activity":"…","confidence":"…"}.

        --confusion DIR scores the classifier on labelled recordings instead: every trace in DIR \
        whose file name starts with a MotionSense activity code (dws, ups, wlk = walking; jog = \
        running; sit, std = stationary) or whose folder is named after an activity (walking/, \
        running/, stationary/, automotive/, cycling/), or every trace with --label. It prints, \
        per second of data, the truth against the call, and each class's agreement. Each \
        recording is classified alone (its first call dates from its start), or with --joined all \
        of them back to back as one stream, so that every change of activity is found late, as live.

        Examples:
          tiltkit activity ../shared/data/traces/motionsense/jog_16_sub_1.csv --json
          tiltkit activity --confusion ../shared/data/traces/motionsense --joined
        """)

    @Argument(help: "The trace file (or Sensor Logger folder).")
    var file: String?

    @Flag(help: "One JSON object per segment and line.")
    var json = false

    @Flag(help: "Print every analysis window's features and vote instead of segments.")
    var windows = false

    @Option(help: "Score the classifier on the labelled traces in this folder.")
    var confusion: String?

    @Option(help: "With --confusion: the activity of every trace in the folder (e.g. walking).")
    var label: String?

    @Flag(help: "With --confusion: score the call as it stood at each second (no backdating), as a live app sees it.")
    var live = false

    @Flag(help: "With --confusion: play the recordings back to back as one stream (changes must be found).")
    var joined = false

    func validate() throws {
        if (file == nil) == (confusion == nil) { throw ValidationError("give a trace FILE, or --confusion DIR") }
        if let label, MotionActivityKind(rawValue: label) == nil {
            throw ValidationError("--label must be one of \(MotionActivityKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if (label != nil || joined || live) && confusion == nil {
            throw ValidationError("--label, --joined and --live go with --confusion")
        }
    }

    func run() throws {
        try reportingErrors {
            if let confusion {
                let report = try ActivityConfusion.score(folder: URL(fileURLWithPath: confusion),
                                                         label: label.flatMap(MotionActivityKind.init(rawValue:)),
                                                         joined: joined, live: live)
                print(report.table, terminator: "")
                return
            }
            let trace = try loadTrace(file!)
            let first = trace.samples.first?.timestamp ?? 0
            if windows {
                printWindows(trace, from: first)
                return
            }
            let segments = ActivityConfusion.classify(trace)
            for s in segments {
                let start = s.start - first, end = s.end - first
                if json {
                    print(s.jsonLine(origin: first))
                } else {
                    print(String(format: "%9.2f s %9.2f s  ", start, end) + s.kind.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0) + s.confidence.description)
                }
            }
        }
    }

    private func printWindows(_ trace: Trace, from first: Double) {
        var classifier = MotionActivityClassifier()
        print("   start      end  dev(g) peak(g)  period(s) periodicity  steps/s  tilt(deg) tilt-period(s) tilt-periodicity  vote        call")
        var last: Double?
        for sample in trace.samples {
            classifier.push(sample)
            guard let w = classifier.latestWindow, w.end != last, let vote = classifier.latestVote else { continue }
            last = w.end
            print(String(format: "%8.2f %8.2f  %6.3f  %6.2f  %9@  %11.2f  %7@  %9.1f  %13@  %16.2f  %-10@  %@",
                         w.start - first, w.end - first, w.magnitudeDeviation, w.magnitudePeak,
                         w.magnitudePeriod.map { String(format: "%.2f", $0) } ?? "-", w.magnitudePeriodicity,
                         w.stepRate.map { String(format: "%.2f", $0) } ?? "-", w.tiltSpread,
                         w.tiltPeriod.map { String(format: "%.2f", $0) } ?? "-", w.tiltPeriodicity,
                         vote.rawValue, classifier.current.kind.rawValue))
        }
    }
}
