import Foundation

/// One sensor's CSV in a Sensor Logger folder, read row by row a piece at a time (`CSVPieceReader`):
/// `seconds_elapsed` and the named values, scaled. The header is checked when the file is opened
/// and its first reading read then, so a file of the wrong layout or without rows is refused
/// before any sample is made. Rows repeating the previous row exactly are skipped (Sensor Logger
/// can log a reading twice); any other non-increasing time is an error naming the file and line.
///
///     let gyroscope = try SensorLoggerSensorFile.open("Gyroscope.csv", in: folder, name: "export",
///                                                    values: ["x", "y", "z"], scale: 1)
///     while let reading = try gyroscope?.next() { … }
final class SensorLoggerSensorFile {
    /// One row: time in seconds (`seconds_elapsed`), the values scaled, and its line in the file.
    struct Reading {
        let time: Double
        let values: [Double]
        let line: Int
    }

    /// The file as errors name it: the folder's name, then the file's.
    var name: String { pieces.name }
    /// The first reading, read when the file was opened (a file without one is refused).
    private(set) var first: Reading!
    /// A last line cut off mid-write, passed over.
    private(set) var warnings: [TraceError] = []

    private let pieces: CSVPieceReader
    private var document: CSVDocument
    private var nextIndex: Int
    private let timeColumn: Int
    private let valueColumns: [Int]
    private let valueNames: [String]
    private let scale: Double
    private let cellCount: Int
    /// The last row read, kept to tell a repeated row (skipped) from a time going back (an error).
    private var previous: (document: CSVDocument, line: CSVDocument.Line, time: Double)?

    /// The file `wanted` in `folder` (matched ignoring case), or nil if the folder has none.
    static func open(_ wanted: String, in folder: URL, name: String, values: [String], scale: Double,
                     pieceSize: Int = 4 << 20) throws -> SensorLoggerSensorFile? {
        guard let pieces = try SensorLoggerSensorFile.pieces(wanted, in: folder, name: name, required: false, pieceSize: pieceSize) else {
            return nil
        }
        return try SensorLoggerSensorFile(pieces: pieces, values: values, scale: scale)
    }

    /// The file `wanted` in `folder`, opened; a missing `required` file throws, naming it.
    static func pieces(_ wanted: String, in folder: URL, name: String, required: Bool, pieceSize: Int) throws -> CSVPieceReader? {
        guard let file = SensorLoggerImporter.file(named: wanted, in: folder) else {
            let display = (name as NSString).appendingPathComponent(wanted)
            if required { throw TraceError(file: display, line: nil, problem: .unreadable(reason: "no such file")) }
            return nil
        }
        let display = (name as NSString).appendingPathComponent(file)
        return CSVPieceReader(file: try FileInput(path: folder.appendingPathComponent(file).path, name: display), pieceSize: pieceSize)
    }

    private init(pieces: CSVPieceReader, values names: [String], scale: Double) throws {
        self.pieces = pieces
        var document = try pieces.first()
        try TraceFormat.checkHeader(document)
        // Blank lines before the header are not lines: look on until one is found.
        while document.isEmpty, let more = try pieces.next() { document = more }
        guard let header = document.lines.first else { throw TraceError(file: pieces.name, line: 1, problem: .emptyFile) }
        timeColumn = try document.columns(["seconds_elapsed"], in: header)![0]
        valueColumns = try document.columns(names, in: header)!
        valueNames = names
        self.scale = scale
        cellCount = header.cells.count
        pieces.rowCells = cellCount
        self.document = document
        nextIndex = 1
        guard let first = try next() else { throw TraceError(file: pieces.name, line: header.number, problem: .noSamples) }
        self.first = first
    }

    /// The next reading in time order, nil after the last.
    func next() throws -> Reading? {
        while true {
            while nextIndex == document.lines.count {
                if let cut = document.cutLastLine { warnings.append(cut) }
                guard let more = try pieces.next() else { return nil }
                document = more
                nextIndex = 0
            }
            let line = document.lines[nextIndex]
            nextIndex += 1
            if let reading = try reading(line) { return reading }
        }
    }

    /// The row on `line`, or nil for a row repeating the previous one.
    private func reading(_ line: CSVDocument.Line) throws -> Reading? {
        try document.checkCellCount(line, expected: cellCount)
        let time = try document.time(timeColumn, name: "seconds_elapsed", on: line, after: nil)
        if let previous, time <= previous.time {
            // A repeat has the previous row's time, so only a time not after it needs the cells compared.
            if repeats(line, previous.document, previous.line) { return nil }
            throw TraceError(file: name, line: line.number, problem: .nonIncreasingTime(previous: previous.time, current: time))
        }
        guard let values = try document.values(valueColumns, names: valueNames, on: line) else {
            throw TraceError(file: name, line: line.number, problem: .incompleteVector(columns: valueNames))
        }
        previous = (document, line, time)
        return Reading(time: time, values: values.map { $0 * scale }, line: line.number)
    }

    private func repeats(_ line: CSVDocument.Line, _ otherDocument: CSVDocument, _ other: CSVDocument.Line) -> Bool {
        line.cells.count == other.cells.count
            && zip(line.cells, other.cells).allSatisfy { document.text($0) == otherDocument.text($1) }
    }
}
