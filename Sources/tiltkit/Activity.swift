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

        How the classifier scores on labelled recordings is `tiltkit bench activity`.

        Examples:
          tiltkit activity ../shared/data/traces/motionsense/jog_16_sub_1.csv --json
        """)

    @Argument(help: "The trace file (or Sensor Logger folder).")
    var file: String?

    @Flag(help: "One JSON object per segment and line.")
    var json = false

    @Flag(help: "Print every analysis window's features and vote instead of segments.")
    var windows = false

    /// Moved to `tiltkit bench activity`, with the three below; kept so the old invocation says where.
    @Option(help: .hidden)
    var confusion: String?

    @Option(help: .hidden)
    var label: String?

    @Flag(help: .hidden)
    var live = false

    @Flag(help: .hidden)
    var joined = false

    func validate() throws {
        if let moved = [("--confusion", confusion != nil), ("--label", label != nil), ("--live", live), ("--joined", joined)]
            .first(where: \.1)?.0 {
            printError("tiltkit activity: \(moved) moved: tiltkit bench activity DIR [--joined] [--live] [--label KIND]")
            throw ExitCode.failure
        }
        if file == nil { throw ValidationError("give a trace FILE") }
    }

    func run() throws {
        try reportingErrors {
            // Sample by sample from the file: the classifier is online, memory does not grow with the trace.
            let url = URL(fileURLWithPath: file!)
            var first: Double?
            var classifier = MotionActivityClassifier()
            var windows = self.windows ? WindowPrinter() : nil
            try forEachSample(in: url) { sample in
                if first == nil { first = sample.timestamp }
                classifier.push(sample)
                windows?.print(classifier, from: first!)
            }
            if self.windows { return }
            let origin = first ?? 0
            for s in classifier.allSegments {
                let start = s.start - origin, end = s.end - origin
                if json {
                    print(s.jsonLine(origin: origin))
                } else {
                    print(String(format: "%9.2f s %9.2f s  ", start, end) + s.kind.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0) + s.confidence.description)
                }
            }
        }
    }

    /// `--windows`: every analysis window's features and vote, once, as the classifier closes it.
    private struct WindowPrinter {
        private var last: Double?
        private var printedHeader = false

        mutating func print(_ classifier: MotionActivityClassifier, from first: Double) {
            if !printedHeader {
                Swift.print("   start      end  dev(g) peak(g)  period(s) periodicity  steps/s  tilt(deg) tilt-period(s) tilt-periodicity  vote        call")
                printedHeader = true
            }
            guard let w = classifier.latestWindow, w.end != last, let vote = classifier.latestVote else { return }
            last = w.end
            Swift.print(String(format: "%8.2f %8.2f  %6.3f  %6.2f  %9@  %11.2f  %7@  %9.1f  %13@  %16.2f  %-10@  %@",
                               w.start - first, w.end - first, w.magnitudeDeviation, w.magnitudePeak,
                               w.magnitudePeriod.map { String(format: "%.2f", $0) } ?? "-", w.magnitudePeriodicity,
                               w.stepRate.map { String(format: "%.2f", $0) } ?? "-", w.tiltSpread,
                               w.tiltPeriod.map { String(format: "%.2f", $0) } ?? "-", w.tiltPeriodicity,
                               vote.rawValue, classifier.current.kind.rawValue))
        }
    }
}
