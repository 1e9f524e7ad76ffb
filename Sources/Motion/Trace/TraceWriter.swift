import Foundation

/// Streams samples into a tiltkit trace file: preamble at once, rows as they are appended.
/// `flush()` pushes buffered rows to the file (the recorder calls it per sample); `close()`
/// flushes, fsyncs and closes. Values in columns not chosen up front are not written. The file
/// holds whole lines only, even after a failed write (see `LineFileWriter`).
public final class TraceWriter {
    public let url: URL
    private let channels: [TraceChannel]
    private let file: LineFileWriter

    /// `name` is the file in messages (default: `url`'s path as given).
    public init(url: URL, name: String? = nil, metadata: TraceMetadata, columns: TraceColumns,
                write: @escaping LineFileWriter.Write = { Glibc.write($0, $1, $2) }) throws {
        self.url = url
        self.channels = TraceChannel.written(for: columns)
        file = try LineFileWriter(path: url.path, name: name ?? url.relativePath, write: write)
        try file.append(TiltkitTraceFormat.preamble(metadata: metadata, channels: channels))
        try file.flush()
    }

    public func append(_ sample: MotionSample) throws {
        try file.append(TiltkitTraceFormat.row(sample, channels: channels))
    }

    /// Appends a comment line (e.g. a disconnect while recording); readers skip it.
    public func appendComment(_ text: String) throws {
        try file.append("# \(text.replacingOccurrences(of: "\n", with: " "))\n")
    }

    public func flush() throws { try file.flush() }

    public func close() throws { try file.close() }
}
