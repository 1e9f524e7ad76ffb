import ArgumentParser
import Benchmarks
import Foundation

extension Bench {
    /// `tiltkit bench on-foot`: the cart game's false fires over walks, jogs and stairs, per subject.
    struct OnFoot: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "on-foot",
            abstract: "Cart game gestures fired over walks, jogs and stairs (all false), per recording and subject; gate re-openings.",
            discussion: """
            Replays every trace in DIR whose name starts with wlk, jog, ups or dws (MotionSense's codes; \
            scripts/import-motionsense.py converts more subjects) or that carries an on_foot_spans note \
            (scripts/import-hapt.py: UCI HAPT's 30 subjects), or the files given, through the game's \
            headless path (pose detected) and counts the jumps and ducks fired and the times the activity \
            gate let gestures run again after holding them. A trace with on_foot_spans (ACTIVITY START END; \
            ..., seconds) is judged inside those stretches only, a row per activity; a subject note names \
            its subject.

            Example:
              tiltkit bench on-foot ../shared/data/traces/motionsense
            """)

        @Argument(help: ArgumentHelp("Folders (their wlk/jog/ups/dws traces) or trace files.", valueName: "PATH"))
        var paths: [String]

        @Flag(help: "Print machine-readable JSON instead of the table.")
        var json = false

        @Option(help: "The fires per minute a recording may have at most (marked in the summary).")
        var limit = 1.0

        func run() throws {
            try reportingErrors {
                var recordings: [OnFootFires.Recording] = []
                for path in paths {
                    var isFolder: ObjCBool = false
                    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                        throw ValidationError("\(path): no such file or folder")
                    }
                    if isFolder.boolValue {
                        let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
                        for name in names where name.hasSuffix(".csv") {
                            let url = URL(fileURLWithPath: path).appendingPathComponent(name)
                            let notes = try TraceNotes.read(contentsOf: url)
                            guard ["wlk_", "jog_", "ups_", "dws_"].contains(where: { name.hasPrefix($0) }) || notes["on_foot_spans"] != nil
                            else { continue }
                            recordings.append(try OnFootFires.Recording(url: url, notes: notes))
                        }
                    } else {
                        let url = URL(fileURLWithPath: path)
                        recordings.append(try OnFootFires.Recording(url: url, notes: try TraceNotes.read(contentsOf: url)))
                    }
                }
                guard !recordings.isEmpty else {
                    throw ValidationError("no wlk/jog/ups/dws trace, nor one with on_foot_spans, in \(paths.joined(separator: ", "))")
                }
                let bar = ProgressBar(total: recordings.count, label: "on foot")
                let rows = try OnFootFires.measure(recordings) { bar.advance($0) }
                bar.finish()
                if json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                    print(String(decoding: try encoder.encode(rows), as: UTF8.self))
                } else {
                    print(OnFootFires.table(rows, limitPerMinute: limit), terminator: "")
                }
            }
        }
    }
}
