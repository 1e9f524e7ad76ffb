import Foundation

/// A trace's samples one at a time, read from the file a piece of a few MB at a time (the
/// preamble must fit in the first), so memory stays bounded however long the file. Every
/// one-file format streams; its header is checked on the first piece, so a file of another format
/// is refused from its first lines. A Sensor Logger folder (one CSV per sensor, paired by time)
/// is loaded whole behind the same calls.
///
///     let stream = try TraceSampleStream(contentsOf: url)
///     while let sample = try stream.next() { … }
public final class TraceSampleStream {
    /// An imported recording's nominal rate is estimated from the median period of its first
    /// piece (tens of thousands of samples; all of a file smaller than a piece): the rest has not
    /// been read when the metadata is asked for.
    public private(set) var metadata: TraceMetadata
    /// The format read, detected or given.
    public let format: TraceFormat
    /// What the reader passed over without failing (a cut last line); complete once `next()` returns nil.
    public private(set) var warnings: [TraceError] = []
    /// The columns the header names (for a loaded folder: the ones its samples fill).
    public let columns: TraceColumns

    private enum Origin {
        case pieces(FileInput, any TraceRowReader)
        case loaded
    }

    private var origin: Origin
    private var pending: [MotionSample] = []
    private var pendingIndex = 0
    /// Bytes after the last newline of the piece read so far: the start of the next line.
    private var carry: [UInt8] = []
    private var nextLine = 1
    private var sawSample = false
    private var headerLine = 1
    private var rowCells: Int?
    private let pieceSize: Int

    /// `pieceSize` is how many bytes are read at once (tests make it small to cross many pieces).
    public convenience init(contentsOf url: URL, format: TraceFormat? = nil, pieceSize: Int = 4 << 20) throws {
        let name = url.relativePath
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        if format == .sensorLogger || (exists && isDirectory.boolValue) {
            guard SensorLoggerImporter.looksLikeExport(url) else {
                throw TraceError(file: name, line: nil, problem: .unknownFormat(header: "(a folder without Sensor Logger CSVs)"))
            }
            self.init(loaded: try SensorLoggerImporter.read(folder: url, name: name)); return
        }
        let file = try FileInput(path: url.path, name: name)
        var bytes: [UInt8] = []
        var ended = try file.read(upTo: pieceSize, appendingTo: &bytes) < pieceSize
        // The header's line whole: a first line longer than a piece is not a trace's.
        while !ended && !bytes.contains(0x0A) {
            guard bytes.count <= TraceFormat.maximumLineBytes else {
                throw TraceError(file: name, line: 1, problem: .lineTooLong(limit: TraceFormat.maximumLineBytes))
            }
            ended = try file.read(upTo: pieceSize, appendingTo: &bytes) < pieceSize
        }
        let (first, carry, atEnd) = try TraceSampleStream.piece(bytes, file: file, pieceSize: pieceSize, ended: ended)
        let document = CSVDocument(bytes: first, name: name, firstLine: 1, atEnd: atEnd)
        try TraceFormat.checkHeader(document)
        let resolved = try format ?? TraceFormat.detect(document)
        var imported = TraceMetadata(source: Trace.shortName(url), importedFrom: resolved)
        let reader: any TraceRowReader
        switch resolved {
        case .tiltkit: (imported, reader) = try TiltkitTraceFormat.header(document)
        case .columns: reader = try ColumnsImporter.columnReader(document)
        case .xioFusion: reader = try XIOFusionImporter.RowReader(document)
        case .sensorLog: reader = try SensorLogImporter.RowReader(document)
        case .sensorLogger:  // a file, not a folder: refused above
            throw TraceError(file: name, line: nil, problem: .unreadable(reason: "a file, not a Sensor Logger export folder"))
        }
        self.init(metadata: imported, format: resolved, file: file, reader: reader, pieceSize: pieceSize)
        self.carry = carry
        nextLine = document.nextLine
        try take(document, atEnd: atEnd)
        if resolved != .tiltkit { metadata.nominalRate = Trace.estimatedRate(pending) }
    }

    private init(metadata: TraceMetadata, format: TraceFormat, file: FileInput, reader: any TraceRowReader, pieceSize: Int) {
        self.metadata = metadata
        self.format = format
        self.pieceSize = pieceSize
        columns = reader.columns
        headerLine = reader.headerLine
        rowCells = reader.cellCount
        origin = .pieces(file, reader)
    }

    private init(loaded trace: Trace) {
        metadata = trace.metadata
        format = .sensorLogger
        warnings = trace.warnings
        columns = trace.columns
        origin = .loaded
        pieceSize = 0
        pending = trace.samples
    }

    /// The next sample in time order, nil after the last.
    public func next() throws -> MotionSample? {
        while pendingIndex == pending.count {
            guard case .pieces(let file, _) = origin, !isAtEnd else { return nil }
            var bytes = carry
            let n = try file.read(upTo: pieceSize, appendingTo: &bytes)
            let (whole, rest, atEnd) = try TraceSampleStream.piece(bytes, file: file, pieceSize: pieceSize, ended: n == 0)
            carry = rest
            let document = CSVDocument(bytes: whole, name: file.name, firstLine: nextLine, atEnd: atEnd, rowCells: rowCells)
            nextLine = document.nextLine
            try take(document, atEnd: atEnd)
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    private var isAtEnd = false

    private func take(_ document: CSVDocument, atEnd: Bool) throws {
        guard case .pieces(let file, var reader) = origin else { return }
        pending.removeAll(keepingCapacity: true)
        pendingIndex = 0
        try reader.read(document) { pending.append($0) }
        origin = .pieces(file, reader)
        sawSample = sawSample || !pending.isEmpty
        if let cut = document.cutLastLine { warnings.append(cut) }
        if atEnd {
            isAtEnd = true
            if !sawSample { throw TraceError(file: file.name, line: headerLine, problem: .noSamples) }
        }
    }

    /// Splits read bytes after their last newline; at the end of the file everything is whole.
    private static func piece(_ bytes: [UInt8], file: FileInput, pieceSize: Int, ended: Bool? = nil) throws -> ([UInt8], [UInt8], Bool) {
        let atEnd = ended ?? (bytes.count < pieceSize)
        if atEnd { return (bytes, [], true) }
        guard let lastNewline = bytes.lastIndex(of: 0x0A) else {
            // A line longer than a piece: no trace has one; refuse rather than grow without bound.
            guard bytes.count < 2 * pieceSize else {
                throw TraceError(file: file.name, line: nil, problem: .unreadable(reason: "a line longer than \(pieceSize) bytes"))
            }
            return ([], bytes, false)
        }
        return (Array(bytes[...lastNewline]), Array(bytes[(lastNewline + 1)...]), false)
    }
}
