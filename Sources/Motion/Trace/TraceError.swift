/// Why a trace could not be read, with the file and line it happened on.
///
///     do { _ = try Trace.load(contentsOf: url) }
///     catch let e as TraceError { print(e) }   // "walk.csv:17: text in a number: ax is 'abc'"
public struct TraceError: Error, Hashable, CustomStringConvertible, Sendable {
    /// The file (or folder) as the user named it.
    public var file: String
    /// 1-based line number, or nil when the problem is not on one line (an empty folder, say).
    public var line: Int?
    public var problem: Problem

    public init(file: String, line: Int?, problem: Problem) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    public enum Problem: Hashable, Sendable {
        case emptyFile
        /// A line longer than `limit` bytes (a binary file, a file without newlines).
        case lineTooLong(limit: Int)
        /// A header with more than `limit` columns.
        case tooManyColumns(found: Int, limit: Int)
        case unreadable(reason: String)
        case unwritable(reason: String)
        case unknownFormat(header: String)
        case unsupportedVersion(String)
        case missingColumns([String])
        case unknownColumn(String)
        case wrongUnit(column: String, found: String, expected: String)
        case textInNumber(column: String, text: String)
        case notFinite(column: String, text: String)
        case nonIncreasingTime(previous: Double, current: Double)
        /// A time beyond ±`maxTime` seconds.
        case timeOutOfRange(column: String, value: Double)
        case wrongCellCount(found: Int, expected: Int)
        case truncatedLastLine(found: Int, expected: Int)
        /// Some but not all of a vector's cells are filled (`ax` without `ay`, say).
        case incompleteVector(columns: [String])
        case missingAcceleration
        case emptyCell(column: String)
        case noSamples
        case badMetadata(String)
        /// A stream another stream's sample needs has none near that time (Sensor Logger).
        case noMatchingSample(stream: String)
    }

    /// What is wrong, in words, without file and line.
    public var what: String {
        switch problem {
        case .emptyFile: return "empty file (no lines), expected a trace: a header line, then samples"
        case .lineTooLong(let limit): return "line longer than \(limit) bytes (the longest a trace's line may be): not a trace"
        case .tooManyColumns(let found, let limit):
            return "\(found) columns in the header, at most \(limit): not a trace"
        case .unreadable(let reason): return "cannot read: \(reason)"
        case .unwritable(let reason): return "cannot write: \(reason)"
        case .unknownFormat(let header):
            return "unknown format (first line '\(header.prefix(80))' is none of: \(TraceFormat.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .unsupportedVersion(let v): return "unsupported trace version '\(v)' (this build reads v\(TraceFormatVersion.current))"
        case .missingColumns(let names): return "missing columns: \(names.joined(separator: ", "))"
        case .unknownColumn(let name): return "unknown column '\(name)'"
        case .wrongUnit(let column, let found, let expected):
            return "column \(column) is in '\(found)', expected '\(expected)'"
        case .textInNumber(let column, let text): return "text in a number: \(column) is '\(text)'"
        case .notFinite(let column, let text): return "not a finite number: \(column) is '\(text)'"
        case .nonIncreasingTime(let previous, let current):
            return "time does not increase: \(current) s after \(previous) s"
        case .timeOutOfRange(let column, let value):
            return "time out of range: \(column) is \(value) s (at most ±\(CSVDocument.maxTime) s)"
        case .wrongCellCount(let found, let expected): return "\(found) cells, the header has \(expected)"
        case .truncatedLastLine(let found, let expected):
            return "truncated last line: \(found) of \(expected) cells"
        case .incompleteVector(let columns): return "incomplete vector: \(columns.joined(separator: ", ")) must be all filled or all empty"
        case .missingAcceleration: return "no accelerometer value on this row"
        case .emptyCell(let column): return "empty cell: \(column) is required"
        case .noSamples: return "no samples"
        case .badMetadata(let text): return "bad metadata: \(text)"
        case .noMatchingSample(let stream): return "no \(stream) sample near this time"
        }
    }

    /// `file:line: what`, the one-line form the CLI prints.
    public var description: String {
        if let line { return "\(file):\(line): \(what)" }
        return "\(file): \(what)"
    }
}
