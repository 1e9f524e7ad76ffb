/// Reads samples from the data rows of a CSV file that may come in several pieces
/// (`TraceSampleStream`), in order: each format's reader checks its header once, when made from
/// the file's first piece, so a file of another format is refused from its first lines, and then
/// keeps only what crosses a row (the previous time, a held pressure).
protocol TraceRowReader {
    /// The line number of the header.
    var headerLine: Int { get }
    /// Cells in the header, and so in every row.
    var cellCount: Int { get }
    /// The optional columns the header names.
    var columns: TraceColumns { get }
    /// Hands over each data row of `document` after the header, in order.
    mutating func read(_ document: CSVDocument, _ body: (MotionSample) throws -> Void) throws
}

