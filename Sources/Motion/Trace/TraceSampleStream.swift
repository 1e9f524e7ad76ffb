import Foundation

/// A trace's samples one at a time, read from the file a piece of a few MB at a time (the
/// preamble must fit in the first), so memory stays bounded however long the file. Every format
/// streams; a one-file format's header is checked on the first piece, so a file of another format
/// is refused from its first lines. A Sensor Logger folder (one CSV per sensor, paired by time) is
/// merged from its files as they are read (`SensorLoggerSamples`).
///
///     let stream = try TraceSampleStream(contentsOf: url)
///     while let sample = try stream.next() { … }
public final class TraceSampleStream {
    /// An imported recording's nominal rate is estimated from the median period of its first
    /// piece (tens of thousands of samples; all of a file smaller than a piece; for a folder, its
    /// first readings): the rest has not been read when the metadata is asked for.
    public private(set) var metadata: TraceMetadata
    /// The format read, detected or given.
    public let format: TraceFormat
    /// What the reader passed over without failing (a cut last line); complete once `next()` returns nil.
    public var warnings: [TraceError] {
        if case .folder(let samples) = origin { return samples.warnings }
        return pieceWarnings
    }
    /// The columns the header names (for a folder: those its sensor files stand for).
    public let columns: TraceColumns

    private enum Origin {
        case pieces(CSVPieceReader, any TraceRowReader)
        case folder(SensorLoggerSamples)
    }

    private var origin: Origin
    private var pieceWarnings: [TraceError] = []
    private var pending: [MotionSample] = []
    private var pendingIndex = 0
    private var sawSample = false
    private var headerLine = 1

    /// `pieceSize` is how many bytes are read at once (tests make it small to cross many pieces);
    /// a folder's sensor files read at most `SensorLoggerSamples.filePieceSize` each.
    public convenience init(contentsOf url: URL, format: TraceFormat? = nil, pieceSize: Int = 4 << 20) throws {
        let name = url.relativePath
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        if format == .sensorLogger || (exists && isDirectory.boolValue) {
            guard SensorLoggerImporter.looksLikeExport(url) else {
                throw TraceError(file: name, line: nil, problem: .unknownFormat(header: "(a folder without Sensor Logger CSVs)"))
            }
            let filePieceSize = min(pieceSize, SensorLoggerSamples.filePieceSize)
            self.init(folder: try SensorLoggerSamples(folder: url, name: name, pieceSize: filePieceSize)); return
        }
        let pieces = CSVPieceReader(file: try FileInput(path: url.path, name: name), pieceSize: pieceSize)
        let document = try pieces.first()
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
        self.init(metadata: imported, format: resolved, pieces: pieces, reader: reader)
        try take(document)
        if resolved != .tiltkit { metadata.nominalRate = Trace.estimatedRate(pending) }
    }

    private init(metadata: TraceMetadata, format: TraceFormat, pieces: CSVPieceReader, reader: any TraceRowReader) {
        self.metadata = metadata
        self.format = format
        columns = reader.columns
        headerLine = reader.headerLine
        pieces.rowCells = reader.cellCount
        origin = .pieces(pieces, reader)
    }

    private init(folder samples: SensorLoggerSamples) {
        metadata = samples.metadata
        format = .sensorLogger
        columns = samples.columns
        origin = .folder(samples)
    }

    /// The next sample in time order, nil after the last.
    public func next() throws -> MotionSample? {
        if case .folder(let samples) = origin { return try samples.next() }
        while pendingIndex == pending.count {
            guard case .pieces(let pieces, _) = origin, let document = try pieces.next() else { return nil }
            try take(document)
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    private func take(_ document: CSVDocument) throws {
        guard case .pieces(let pieces, var reader) = origin else { return }
        pending.removeAll(keepingCapacity: true)
        pendingIndex = 0
        try reader.read(document) { pending.append($0) }
        origin = .pieces(pieces, reader)
        sawSample = sawSample || !pending.isEmpty
        if let cut = document.cutLastLine { pieceWarnings.append(cut) }
        if pieces.isAtEnd && !sawSample { throw TraceError(file: pieces.name, line: headerLine, problem: .noSamples) }
    }
}
