import ArgumentParser
import Foundation
import Motion

/// `tiltkit history summary FILE`: the one line `history record` ends with, for a file on its own.
struct HistorySummaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "Print what a history file holds: its readings, their span and the file's size.")

    @Argument(help: "The history file `tiltkit history record` (or SensorRecorder) wrote.")
    var file: String

    func run() throws {
        try reportingErrors { print(try HistorySummary(file: file).text) }
    }
}

/// One line about an accelerometer history file: its readings, their span and the file's size.
struct HistorySummary {
    var path: String
    var count: Int
    var capacity: Int
    var span: ClosedRange<Double>?
    var bytes: Int
    /// The source that recorded it, when known.
    var source: String?

    init(file path: String, source: String? = nil) throws {
        let history = try AccelerometerHistoryFile(existingAt: path, readOnly: true)
        self.path = path
        count = history.count
        capacity = history.capacity
        span = history.span
        bytes = AccelerometerHistoryFile.fileBytes(capacity: history.capacity)
        self.source = source
    }

    var text: String {
        let size = "capacity \(capacity) readings, \(bytes) bytes"
        let from = source.map { " from \($0)" } ?? ""
        guard let span else { return "\(path): no readings\(from) (\(size))" }
        let times = String(format: "%.3f s to %.3f s (%.3f s", span.lowerBound, span.upperBound, span.upperBound - span.lowerBound)
        return "\(path): \(count) readings\(from), \(times); \(size))"
    }
}
