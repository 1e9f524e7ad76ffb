import Foundation

/// A CSV file read a piece of a few MB at a time, each piece a `CSVDocument` of whole lines
/// numbered on from the piece before, so memory stays bounded however long the file. The first
/// piece holds the first line whole, so a header can be checked before anything else is read.
///
///     let pieces = CSVPieceReader(file: try FileInput(path: url.path, name: "trace.csv"))
///     let header = try pieces.first()
///     while let document = try pieces.next() { … }
final class CSVPieceReader {
    let file: FileInput
    /// Bytes read at once (tests make it small to cross many pieces).
    let pieceSize: Int
    /// The header's cell count once known: what a cut last line is compared with.
    var rowCells: Int?
    /// True once the piece holding the file's last line has been handed out.
    private(set) var isAtEnd = false
    /// Bytes after the last newline read so far: the start of the next line.
    private var carry: [UInt8] = []
    private var nextLine = 1

    init(file: FileInput, pieceSize: Int = 4 << 20) {
        self.file = file
        self.pieceSize = pieceSize
    }

    var name: String { file.name }

    /// The file's first piece, its first line whole; call once, before `next()`.
    func first() throws -> CSVDocument {
        var bytes: [UInt8] = []
        var ended = try file.read(upTo: pieceSize, appendingTo: &bytes) < pieceSize
        // A first line longer than a piece is not a trace's: refuse it before it grows without bound.
        while !ended && !bytes.contains(0x0A) {
            guard bytes.count <= TraceFormat.maximumLineBytes else {
                throw TraceError(file: name, line: 1, problem: .lineTooLong(limit: TraceFormat.maximumLineBytes))
            }
            ended = try file.read(upTo: pieceSize, appendingTo: &bytes) < pieceSize
        }
        return try document(bytes, ended: ended)
    }

    /// The next piece, nil after the last.
    func next() throws -> CSVDocument? {
        guard !isAtEnd else { return nil }
        var bytes = carry
        let n = try file.read(upTo: pieceSize, appendingTo: &bytes)
        return try document(bytes, ended: n == 0)
    }

    /// Splits read bytes after their last newline; at the end of the file everything is whole.
    private func document(_ bytes: [UInt8], ended: Bool) throws -> CSVDocument {
        var whole = bytes
        carry = []
        if !ended {
            if let lastNewline = bytes.lastIndex(of: 0x0A) {
                whole = Array(bytes[...lastNewline])
                carry = Array(bytes[(lastNewline + 1)...])
            } else {
                // A line longer than a piece: no trace has one; refuse rather than grow without bound.
                guard bytes.count < 2 * pieceSize else {
                    throw TraceError(file: name, line: nil, problem: .unreadable(reason: "a line longer than \(pieceSize) bytes"))
                }
                whole = []
                carry = bytes
            }
        }
        isAtEnd = ended
        let document = CSVDocument(bytes: whole, name: name, firstLine: nextLine, atEnd: ended, rowCells: rowCells)
        nextLine = document.nextLine
        return document
    }
}
