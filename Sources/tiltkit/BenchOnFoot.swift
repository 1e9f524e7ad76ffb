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
            scripts/import-motionsense.py converts more subjects), or the files given, through the game's \
            headless path (pose detected) and counts the jumps and ducks fired and the times the activity \
            gate let gestures run again after holding them.

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
                var urls: [URL] = []
                for path in paths {
                    var isFolder: ObjCBool = false
                    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                        throw ValidationError("\(path): no such file or folder")
                    }
                    if isFolder.boolValue {
                        let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
                        urls += names.filter { name in name.hasSuffix(".csv") && ["wlk_", "jog_", "ups_", "dws_"].contains { name.hasPrefix($0) } }
                            .map { URL(fileURLWithPath: path).appendingPathComponent($0) }
                    } else {
                        urls.append(URL(fileURLWithPath: path))
                    }
                }
                guard !urls.isEmpty else { throw ValidationError("no wlk/jog/ups/dws trace in \(paths.joined(separator: ", "))") }
                let bar = ProgressBar(total: urls.count, label: "on foot")
                let rows = try OnFootFires.measure(urls) { bar.advance($0) }
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
