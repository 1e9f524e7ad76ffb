import Foundation

/// A CSV file split into lines and cells. Cells stay byte ranges into the file, so a large
/// trace parses without a `String` per cell; numbers are checked strictly (no NaN, no inf,
/// no stray text) and every error carries the file and line.
struct CSVDocument {
    /// One non-blank line: its 1-based number in the file and its cells.
    struct Line {
        let number: Int
        let cells: [Range<Int>]
    }

    let file: String
    let bytes: [UInt8]
    /// Non-blank lines in order, comments (`#…`) included.
    let lines: [Line]

    /// A last line cut off mid-write (no newline, fewer cells than the row before it), left out of
    /// `lines` so the whole rows before it still read; the reader passes it on as a warning.
    let cutLastLine: TraceError?
    /// The number the line after these bytes has.
    let nextLine: Int

    init(contentsOf url: URL, name: String) throws {
        self.init(bytes: try FileInput.bytes(path: url.path, name: name), name: name)
    }

    /// `bytes` may be a piece of a file (see `TraceSampleStream`): lines are numbered from
    /// `firstLine`, and only the piece `atEnd` can have a cut last line; `rowCells`, the header's
    /// count where known, is what that line is compared with (else the row before it).
    init(bytes: [UInt8], name: String, firstLine: Int = 1, atEnd: Bool = true, rowCells: Int? = nil) {
        self.file = name
        self.bytes = bytes
        var lines: [Line] = []
        var terminated = true
        var number = firstLine - 1
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let count = buffer.count
            // A UTF-8 byte-order mark (Excel and Windows editors write one) is not part of the first cell.
            var start = firstLine == 1 && count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF ? 3 : 0
            while start < count {
                number += 1
                // memchr: a debug build scans a 1.7 MB trace many times faster than with a Swift loop.
                let end = memchr(base + start, 0x0A, count - start).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? count
                var contentEnd = end
                if contentEnd > start && base[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                if !CSVDocument.isBlank(base, start..<contentEnd) {
                    lines.append(Line(number: number, cells: CSVDocument.cells(base, start..<contentEnd)))
                    terminated = end < count
                }
                start = end + 1
            }
        }
        cutLastLine = atEnd ? CSVDocument.cutLastLine(of: &lines, bytes: bytes, terminated: terminated, rowCells: rowCells, file: name) : nil
        self.lines = lines
        nextLine = number + 1
    }

    /// Removes and returns (as the error it would have been) an unterminated last line with fewer
    /// cells than the row before it: what a recording killed or starved of disk mid-write leaves.
    private static func cutLastLine(of lines: inout [Line], bytes: [UInt8], terminated: Bool, rowCells: Int?, file: String) -> TraceError? {
        guard !terminated, let last = lines.last,
              let expected = rowCells ?? lines.dropLast().last(where: { line in
                  line.cells.first.map { bytes[$0.lowerBound] != UInt8(ascii: "#") } ?? true
              })?.cells.count,
              last.cells.count < expected else { return nil }
        lines.removeLast()
        return TraceError(file: file, line: last.number, problem: .truncatedLastLine(found: last.cells.count, expected: expected))
    }

    var isEmpty: Bool { lines.isEmpty }

    func isComment(_ line: Line) -> Bool {
        guard let first = line.cells.first, !first.isEmpty else { return false }
        return bytes[first.lowerBound] == UInt8(ascii: "#")
    }

    /// The whole line as text (for headers and comments).
    func text(of line: Line) -> String {
        guard let first = line.cells.first, let last = line.cells.last else { return "" }
        return String(decoding: bytes[first.lowerBound..<last.upperBound], as: UTF8.self)
    }

    /// A cell as text, surrounding quotes and spaces removed.
    func text(_ cell: Range<Int>) -> String {
        String(decoding: bytes[trimmed(cell)], as: UTF8.self)
    }

    /// A cell as a finite number, or nil when the cell is empty.
    func number(_ cell: Range<Int>, column: String, line: Int) throws -> Double? {
        let r = trimmed(cell)
        if r.isEmpty { return nil }
        let parsed: Double? = bytes.withUnsafeBufferPointer { buffer -> Double? in
            // Only digits, sign, point and exponent: Swift's and C's parsers would also accept
            // "nan", "inf" and hex, which a trace must not contain.
            for i in r {
                switch buffer[i] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"),
                     UInt8(ascii: "+"), UInt8(ascii: "e"), UInt8(ascii: "E"):
                    continue
                default:
                    return nil
                }
            }
            // Up to 15 bytes a String is stored inline, so this allocates nothing for most cells.
            return Double(String(decoding: UnsafeBufferPointer(rebasing: buffer[r]), as: UTF8.self))
        }
        guard let value = parsed else {
            let text = String(decoding: bytes[r], as: UTF8.self)
            let spelled = text.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "+-"))
            let nonFinite = ["nan", "inf", "infinity", "snan"].contains(spelled)
            throw TraceError(file: file, line: line,
                             problem: nonFinite ? .notFinite(column: column, text: text) : .textInNumber(column: column, text: text))
        }
        guard value.isFinite else {
            throw TraceError(file: file, line: line, problem: .notFinite(column: column, text: String(decoding: bytes[r], as: UTF8.self)))
        }
        return value
    }

    /// Throws unless `line` has exactly `expected` cells (a cut last line never gets here: see `cutLastLine`).
    func checkCellCount(_ line: Line, expected: Int) throws {
        let found = line.cells.count
        guard found != expected else { return }
        throw TraceError(file: file, line: line.number, problem: .wrongCellCount(found: found, expected: expected))
    }

    private func trimmed(_ cell: Range<Int>) -> Range<Int> {
        var lo = cell.lowerBound, hi = cell.upperBound
        while lo < hi && (bytes[lo] == 0x20 || bytes[lo] == 0x09) { lo += 1 }
        while hi > lo && (bytes[hi - 1] == 0x20 || bytes[hi - 1] == 0x09) { hi -= 1 }
        if hi - lo >= 2 && bytes[lo] == 0x22 && bytes[hi - 1] == 0x22 { lo += 1; hi -= 1 }
        return lo..<hi
    }

    private static func isBlank(_ bytes: UnsafePointer<UInt8>, _ range: Range<Int>) -> Bool {
        for i in range where bytes[i] != 0x20 && bytes[i] != 0x09 { return false }
        return true
    }

    /// Splits on commas outside double quotes.
    private static func cells(_ bytes: UnsafePointer<UInt8>, _ range: Range<Int>) -> [Range<Int>] {
        var cells: [Range<Int>] = []
        var cellStart = range.lowerBound
        var quoted = false
        var i = range.lowerBound
        while i < range.upperBound {
            let b = bytes[i]
            if b == 0x22 { quoted.toggle() } else if b == 0x2C && !quoted {
                cells.append(cellStart..<i)
                cellStart = i + 1
            }
            i += 1
        }
        cells.append(cellStart..<range.upperBound)
        return cells
    }
}
