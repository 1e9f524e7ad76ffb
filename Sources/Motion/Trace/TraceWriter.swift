import Foundation

/// Streams samples into a tiltkit trace file: preamble at once, rows as they are appended.
/// `flush()` pushes buffered rows to the file (the recorder calls it per sample); `close()`
/// flushes and closes. Values in columns not chosen up front are not written.
public final class TraceWriter {
    public let url: URL
    private let channels: [TraceChannel]
    private let handle: FileHandle
    private var buffer = ""
    private var isClosed = false

    public init(url: URL, metadata: TraceMetadata, columns: TraceColumns) throws {
        self.url = url
        self.channels = TraceChannel.written(for: columns)
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
              let handle = try? FileHandle(forWritingTo: url) else {
            let folder = url.deletingLastPathComponent().path
            let reason = FileManager.default.fileExists(atPath: folder) ? "cannot create the file" : "no folder \(folder)"
            throw TraceError(file: url.relativePath, line: nil, problem: .unwritable(reason: reason))
        }
        self.handle = handle
        buffer = TiltkitTraceFormat.preamble(metadata: metadata, channels: channels)
        try flush()
    }

    deinit { try? close() }

    public func append(_ sample: MotionSample) {
        buffer += TiltkitTraceFormat.row(sample, channels: channels)
    }

    /// Appends a comment line (e.g. a disconnect while recording); readers skip it.
    public func appendComment(_ text: String) {
        buffer += "# \(text.replacingOccurrences(of: "\n", with: " "))\n"
    }

    public func flush() throws {
        guard !buffer.isEmpty, !isClosed else { return }
        try handle.write(contentsOf: Data(buffer.utf8))
        buffer.removeAll(keepingCapacity: true)
    }

    public func close() throws {
        guard !isClosed else { return }
        try flush()
        isClosed = true
        try handle.close()
    }
}
