import ArgumentParser
import Foundation
import Motion
import MotionEvaluation

extension Bench {
    /// `tiltkit bench activity`: the activity classifier against labelled recordings.
    struct Activity: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The activity classifier against labelled recordings: truth against call per second of data.",
            discussion: """
            Scores every trace in DIR whose file name starts with a MotionSense activity code (dws, \
            ups, wlk = walking; jog = running; sit, std = stationary) or whose folder is named after \
            an activity (walking/, running/, stationary/, automotive/, cycling/), or every trace with \
            --label. It prints, per second of data, the truth against the call, and each class's \
            agreement. Each recording is classified alone (its first call dates from its start), or \
            with --joined all of them back to back as one stream, so that every change of activity is \
            found late, as live.

            Example:
              tiltkit bench activity ../shared/data/traces/motionsense --joined
            """)

        @Argument(help: ArgumentHelp("The folder of labelled traces.", valueName: "DIR"))
        var folder: String

        @Option(help: "The activity of every trace in the folder (e.g. walking).")
        var label: String?

        @Flag(help: "Score the call as it stood at each second (no backdating), as a live app sees it.")
        var live = false

        @Flag(help: "Play the recordings back to back as one stream (changes must be found).")
        var joined = false

        func validate() throws {
            if let label, MotionActivityKind(rawValue: label) == nil {
                throw ValidationError("--label must be one of \(MotionActivityKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }

        func run() throws {
            try reportingErrors {
                let report = try ActivityConfusion.score(folder: URL(fileURLWithPath: folder),
                                                         label: label.flatMap(MotionActivityKind.init(rawValue:)),
                                                         joined: joined, live: live, load: { try loadTrace($0) })
                print(report.table, terminator: "")
            }
        }
    }
}
